#!/usr/bin/env node
// `npm start`: the main job. Makes sure the Pulumi engine exists (building it once), builds the
// project, starts the emulator with the demo seed on a loopback port and runs `pulumi up` on the
// `dev` stack, whose state lives in .incident-sync/. Exit codes: 0 done, 1 failed.

import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);

if (process.argv.includes("--help") || process.argv.includes("-h")) {
  process.stdout.write(`Usage: npm start

Runs the main job against the embedded emulator:
  1. makes the Pulumi engine available (npm run engine; the first build takes minutes)
  2. builds the project (npm run build)
  3. starts the emulator with the demo seed on a free loopback port
     (data kept in .incident-sync/emulator.db)
  4. runs pulumi up on the dev stack (state in .incident-sync/engine), prints what changed
     and a summary: incidents, latest updates, heartbeat ratios, top error groups, drift

Environment: PULUMI_CONFIG_PASSPHRASE overrides the local demo passphrase;
INCIDENT_SYNC_PULUMI_BIN points at an existing Pulumi CLI.
Exit codes: 0 done, 1 failed.
`);
  process.exit(0);
}

function step(title, command, args) {
  process.stderr.write(`${title}\n`);
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: "inherit" });
  if (result.status !== 0) {
    process.stderr.write(`npm start: ${title.replace(/^\W+/, "")} failed; see the output above.\n`);
    process.exit(1);
  }
}

const npm = process.env.npm_execpath;
step("» Ensuring the Pulumi engine", process.execPath, [join(repoRoot, "scripts", "engine.mjs")]);
step(
  "» Building (npm run build)",
  npm ? process.execPath : "npm",
  npm ? [npm, "run", "--silent", "build"] : ["run", "--silent", "build"],
);

const { runMainJob } = require(join(repoRoot, "dist", "src", "engine", "main-job.js"));
const { changedIncidents, formatSummary } = require(join(repoRoot, "dist", "src", "program"));
try {
  const { stackName, up } = await runMainJob({ repoRoot });
  const counts = Object.entries(up.changes)
    .map(([op, count]) => `${count} ${op === "same" ? "unchanged" : op}`)
    .join(", ");
  const seconds = (up.durationMs / 1000).toFixed(1);
  process.stdout.write(
    `\nStack ${stackName}: ${up.changed ? "changes applied" : "no changes"} (${counts || "no resources"}; ${seconds} s)\n${changedIncidents(
      up.stdout,
    )
      .map((line) => `  ${line}\n`)
      .join("")}\n${formatSummary(up.outputs)}\n`,
  );
} catch (error) {
  const known = error instanceof Error && /^Engine/.test(error.name);
  process.stderr.write(`npm start: ${known ? error.message : (error?.stack ?? String(error))}\n`);
  process.exit(1);
}
