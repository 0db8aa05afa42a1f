// A Python tool from PyPI in a venv of its own under .incident-sync/ (gitignored): installed
// with --no-deps from a requirements file that pins every version, again only when that file
// changes. It needs `python3` (3.9+) with venv, or INCIDENT_SYNC_PYTHON. Used by
// `npm run fuzz:api` (schemathesis) and the S3-compatible backend tests (moto); the product
// never needs Python.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Runs a command to its end, its output inherited unless `options` say otherwise.
 * @param {string} command
 * @param {readonly string[]} args
 * @param {import("node:child_process").SpawnOptions} [options]
 * @returns {Promise<number>} the exit code (128 when a signal ended it)
 */
export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "inherit", ...options });
    child.once("error", reject);
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/**
 * The venv `.incident-sync/<name>/venv` with what `requirements` pins, installed if missing or
 * out of date; returns the path of one of its programs by name.
 * @param {string} name the tool's folder under .incident-sync/
 * @param {string} requirements path of the pinned requirements file
 * @param {{ quiet?: boolean }} [options] quiet: pip's output goes nowhere (for tests)
 * @returns {Promise<(program: string) => string>}
 */
export async function ensureVenv(name, requirements, options = {}) {
  const home = path.join(root, ".incident-sync", name);
  const venv = path.join(home, "venv");
  /** @param {string} program */
  const bin = (program) =>
    path.join(venv, process.platform === "win32" ? "Scripts" : "bin", program);
  const wanted = createHash("sha256").update(readFileSync(requirements)).digest("hex");
  const stamp = path.join(home, "installed.sha256");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === wanted && existsSync(bin("python")))
    return bin;
  const python = process.env.INCIDENT_SYNC_PYTHON ?? "python3";
  if (!options.quiet)
    process.stderr.write(`${name}: installing into ${path.relative(root, venv)}\n`);
  rmSync(venv, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  /** @type {[string, string[]][]} */
  const steps = [
    [python, ["-m", "venv", venv]],
    [bin("python"), ["-m", "pip", "install", "--quiet", "--no-deps", "-r", requirements]],
  ];
  for (const [command, args] of steps) {
    const code = await run(command, args, options.quiet ? { stdio: "ignore" } : {}).catch(
      (error) => {
        throw new Error(
          `${command} could not start (${error.message}): install Python 3.9+ with venv, or set INCIDENT_SYNC_PYTHON`,
        );
      },
    );
    if (code !== 0)
      throw new Error(`${path.basename(command)} ${args.join(" ")} failed (exit ${code})`);
  }
  writeFileSync(stamp, wanted);
  return bin;
}
