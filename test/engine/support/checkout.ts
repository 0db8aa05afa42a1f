import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";

export const repoRoot = join(__dirname, "..", "..", "..");

/**
 * A copy of this checkout's files (tracked, and new ones git does not ignore: what a clone of
 * this work would hold) at `dir`, without node_modules or dist.
 */
export function copyCheckout(dir: string, from: string = repoRoot): string {
  if (!existsSync(join(from, ".git"))) {
    // A copy of a copy: everything but what npm ci makes.
    cpSync(from, dir, {
      recursive: true,
      filter: (source) => !/[\\/](node_modules|dist)$/.test(source),
    });
    return dir;
  }
  const files = execFileSync(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    {
      cwd: from,
      encoding: "utf8",
    },
  )
    .split("\0")
    .filter((file) => file !== "");
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    try {
      copyFileSync(join(from, file), join(dir, file));
    } catch (error) {
      // A file deleted in the working tree but still tracked is not part of the work.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  return dir;
}

/**
 * What `npm ci` leaves in a checkout, without the download or the build: node_modules (a link
 * to this checkout's, same packages) and this checkout's `dist/` copied, for a copy whose
 * sources are this checkout's (`npm test` builds `dist/` first).
 */
export function reuseBuild(dir: string): void {
  symlinkSync(join(repoRoot, "node_modules"), join(dir, "node_modules"), "dir");
  cpSync(join(repoRoot, "dist"), join(dir, "dist"), { recursive: true });
}

/**
 * Makes the compiled provider operations of a checkout (or an installed package) append `tag`
 * to `logFile` whenever they run: a test then knows whose code ran.
 */
export function tagOperations(packageDir: string, tag: string, logFile: string): void {
  const file = join(packageDir, "dist", "providers", "incident-operations.js");
  // A copy of tagged code is tagged anew: an earlier tag is removed first.
  const source = readFileSync(file, "utf8").replace(/^ {4}.*\/\/ test tag\n/gm, "");
  const marker = `require("node:fs").appendFileSync(${JSON.stringify(logFile)}, ${JSON.stringify(`${tag}\n`)}); // test tag\n`;
  const tagged = source.replace(
    /^(async function (configure|check|diff|create|update|read|remove)\([^)]*\) \{\n)/gm,
    `$1    ${marker}`,
  );
  if (tagged === source) throw new Error(`no operation found to tag in ${file}`);
  writeFileSync(file, tagged);
}
