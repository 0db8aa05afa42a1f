#!/usr/bin/env node
// npm run vendor-cli
//
// The vendor's own CLI (`checkly` on npm) against the emulator (test/vendor-cli): installed
// from the npm registry at the version pinned here into .incident-sync/vendor-cli/ (gitignored)
// when it is not there yet, then run by vitest.vendor-cli.config.mts with its program named in
// INCIDENT_SYNC_CHECKLY_BIN. Not part of `npm test`: the product does not depend on it.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The version the tests were written against; raise it on purpose, and run them. */
const CHECKLY_VERSION = "9.5.0";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const home = path.join(root, ".incident-sync", "vendor-cli", `checkly-${CHECKLY_VERSION}`);
const manifest = path.join(home, "node_modules", "checkly", "package.json");

/** Runs a command to its end with its output shown; resolves to its exit code. */
function run(command, args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, ...env },
    });
    child.once("error", reject);
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

const installed = existsSync(manifest)
  ? JSON.parse(readFileSync(manifest, "utf8")).version
  : undefined;
if (installed !== CHECKLY_VERSION) {
  mkdirSync(home, { recursive: true });
  console.log(
    `vendor-cli: installing checkly@${CHECKLY_VERSION} into ${path.relative(root, home)}`,
  );
  const code = await run("npm", [
    "install",
    "--prefix",
    home,
    "--no-audit",
    "--no-fund",
    "--no-save",
    "--loglevel",
    "error",
    `checkly@${CHECKLY_VERSION}`,
  ]);
  if (code !== 0) process.exit(code);
}
const bin = path.join(home, "node_modules", "checkly", "bin", "run.cjs");
process.exit(
  await run("npx", ["vitest", "run", "--config", "vitest.vendor-cli.config.mts"], {
    INCIDENT_SYNC_CHECKLY_BIN: bin,
  }),
);
