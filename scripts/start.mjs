#!/usr/bin/env node
// `npm start`: the main job. On a bare machine it first installs the dependencies (`npm ci`)
// and moves to the project's Node 24, then makes sure the Pulumi engine exists (building it
// once), builds the project, starts the emulator with the demo seed on a loopback port and
// runs `up` on the `dev` stack, whose state lives in .incident-sync/.
//
// Plain ESM that runs on any Node from 18 on, because on a fresh clone it starts on whatever
// Node the machine has, before node_modules (and the `node@24` devDependency) exist.
// Exit codes: 0 done, 1 failed, 130/143 stopped by SIGINT/SIGTERM.

import { spawn, spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);

if (args.includes("--help") || args.includes("-h")) {
  process.stdout.write(`Usage: npm start [-- --cancel]

Runs the main job against the embedded emulator:
  1. installs the dependencies when node_modules is missing or older than package-lock.json
     (npm ci), and runs on the project's Node 24 (the node@24 devDependency)
  2. makes the Pulumi engine available (npm run engine; the first build takes minutes)
  3. builds the project (npm run build)
  4. starts the emulator with the demo seed on a loopback port
     (data kept in .incident-sync/emulator.db)
  5. runs incident-sync up on the dev stack (state in .incident-sync/engine), prints what
     changed and a summary: incidents, latest updates, heartbeat ratios, top error groups, drift

Options:
  --cancel   clear the lock of the dev stack (after a run that was killed on another machine)
             instead of running; a lock left by a dead process of this machine is cleared
             automatically

Environment: INCIDENT_SYNC_PULUMI_BIN points at an existing Pulumi CLI.
Exit codes: 0 done, 1 failed, 130 or 143 stopped by SIGINT or SIGTERM (the next run
applies the rest).
`);
  process.exit(0);
}

function step(title, command, commandArgs, options = {}) {
  process.stderr.write(`${title}\n`);
  const result = spawnSync(command, commandArgs, { cwd: repoRoot, stdio: "inherit", ...options });
  if (result.status !== 0) {
    process.stderr.write(`npm start: ${title.replace(/^\W+/, "")} failed; see the output above.\n`);
    process.exit(1);
  }
}

const npmCli = process.env.npm_execpath;
const npm = (npmArgs, title) =>
  npmCli
    ? step(title, process.execPath, [npmCli, ...npmArgs])
    : step(title, "npm", npmArgs, { shell: process.platform === "win32" });

/**
 * `npm ci` on whatever Node the machine has. On a Node older than 24, npm warns once per
 * package that asks for a newer one (EBADENGINE, five lines each); the next step moves to
 * the project's own Node 24, so those warnings are about a toolchain npm start replaces:
 * they are counted in one line instead. Every other line of npm's passes through as it comes.
 */
function installDependencies() {
  const title = "» Installing dependencies (npm ci)";
  process.stderr.write(`${title}\n`);
  const args = ["ci", "--no-audit", "--no-fund"];
  const child = npmCli
    ? spawn(process.execPath, [npmCli, ...args], {
        cwd: repoRoot,
        stdio: ["inherit", "inherit", "pipe"],
      })
    : spawn("npm", args, {
        cwd: repoRoot,
        stdio: ["inherit", "inherit", "pipe"],
        shell: process.platform === "win32",
      });
  const engines = new Set();
  let pending = "";
  const passOn = (line) => {
    const engine = /^npm warn EBADENGINE\s+package: '([^']+)'/.exec(line);
    if (engine) engines.add(engine[1]);
    else if (!line.startsWith("npm warn EBADENGINE")) process.stderr.write(`${line}\n`);
  };
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => {
    const lines = (pending + chunk).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) passOn(line);
  });
  return new Promise((done) => {
    child.on("close", (code) => {
      if (pending) passOn(pending);
      if (engines.size > 0) {
        process.stderr.write(
          `  (${engines.size} packages ask for a newer Node than this machine's ${process.version}; npm start runs them on the project's Node 24, next.)\n`,
        );
      }
      if (code !== 0) {
        process.stderr.write(
          "npm start: Installing dependencies (npm ci) failed; see the output above.\n",
        );
        process.exit(1);
      }
      done();
    });
  });
}

// 1. Dependencies: npm ci when node_modules is missing or older than the lockfile.
const installed = join(repoRoot, "node_modules", ".package-lock.json");
const lockfile = join(repoRoot, "package-lock.json");
if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(lockfile).mtimeMs) {
  await installDependencies();
}

// 2. Node 24: the rest runs on the project's pinned Node, whatever the machine has.
const projectNode = join(repoRoot, "node_modules", "node", "bin", "node");
if (Number(process.versions.node.split(".")[0]) < 24) {
  if (!existsSync(projectNode)) {
    process.stderr.write(
      `npm start: Node ${process.versions.node} is too old and node_modules has no Node 24 (the node devDependency): run npm ci.\n`,
    );
    process.exit(1);
  }
  const rerun = spawnSync(projectNode, [fileURLToPath(import.meta.url), ...args], {
    stdio: "inherit",
    env: { ...process.env, PATH: `${dirname(projectNode)}:${process.env.PATH ?? ""}` },
  });
  process.exit(rerun.status ?? 1);
}

step("» Ensuring the Pulumi engine", process.execPath, [join(repoRoot, "scripts", "engine.mjs")]);
npm(["run", "--silent", "build"], "» Building (npm run build)");

const cli = join(repoRoot, "dist", "src", "cli", "main.js");
const result = spawnSync(
  process.execPath,
  [cli, args.includes("--cancel") ? "cancel" : "up", "--emulator", "--stack", "dev"],
  { cwd: repoRoot, stdio: "inherit" },
);
process.exit(result.status ?? 1);
