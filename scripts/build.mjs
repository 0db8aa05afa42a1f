#!/usr/bin/env node
// npm run build                  # compiles into dist/, unless dist/ is already the build of these sources
// npm run build -- --force       # compiles whatever dist/ holds
// node scripts/build.mjs [--force] [DIR]   # DIR: the checkout (default: this script's)
//
// A build starts from an empty dist/ (scripts/clean-dist.mjs), so that a module deleted or
// renamed in the sources is not left behind to load, run in tests and ship. It is skipped
// when dist/ is exactly what the last build of the same inputs wrote: the digest of every
// file tsc reads (tsconfig.json's "include", tsconfig.json, package.json, package-lock.json) and of every
// file it wrote, kept in dist/.build-digest.json. Anything else (a source edited, a file of
// dist/ changed or deleted, another TypeScript) builds again. `npm start` and `npm test`
// call this, so a second run does not spend a compile on what is already compiled.
//
// Plain ESM for any Node from 18 on: `npm ci` runs it (the prepare script) on the machine's
// Node, before the project's Node 24 is in place.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(
  process.argv.slice(2).find((arg) => !arg.startsWith("--")) ??
    path.join(path.dirname(fileURLToPath(import.meta.url)), ".."),
);
const dist = path.join(root, "dist");
const digestFile = path.join(dist, ".build-digest.json");

/** Every file under `dir` (relative to root, sorted), `keep` deciding which. */
function filesUnder(dir, keep) {
  const found = [];
  const walk = (relative) => {
    const absolute = path.join(root, relative);
    if (!existsSync(absolute)) return;
    for (const entry of readdirSync(absolute, { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile() && keep(child)) found.push(child);
    }
  };
  walk(dir);
  return found.sort();
}

/**
 * The files tsc reads, from tsconfig.json's "include": a file, or `DIR/**\/*.EXT`; any other
 * pattern is refused rather than guessed, so the digest never leaves out an input.
 */
function inputs() {
  const config = JSON.parse(readFileSync(path.join(root, "tsconfig.json"), "utf8"));
  // package.json too: its "type" and "imports" decide what tsc writes under nodenext.
  const files = ["tsconfig.json", "package.json", "package-lock.json"];
  for (const pattern of config.include ?? []) {
    const tree = /^([\w./-]+)\/\*\*\/\*(\.\w+)$/.exec(pattern);
    if (tree) files.push(...filesUnder(tree[1], (file) => file.endsWith(tree[2])));
    else if (!/[*?[\]{}]/.test(pattern)) files.push(pattern);
    else
      throw new Error(
        `scripts/build.mjs: tsconfig.json's include "${pattern}" is not a pattern it reads`,
      );
  }
  return files;
}

/** One digest of the names and contents of `files` (relative to `base`). */
function digestOf(files, base = root) {
  const hash = createHash("sha256");
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(
      existsSync(path.join(base, file)) ? readFileSync(path.join(base, file)) : "\0missing",
    );
    hash.update("\0");
  }
  return hash.digest("hex");
}

const outputs = () => filesUnder("dist", (file) => file !== path.relative(root, digestFile));

/** Whether dist/ is what the last build of these inputs wrote, and nothing else. */
function current(inputDigest) {
  if (!existsSync(digestFile)) return false;
  try {
    const recorded = JSON.parse(readFileSync(digestFile, "utf8"));
    return recorded.inputs === inputDigest && recorded.outputs === digestOf(outputs());
  } catch {
    return false;
  }
}

const inputDigest = digestOf(inputs());
if (!process.argv.includes("--force") && current(inputDigest)) {
  process.stdout.write("build: dist/ is the build of these sources already; nothing to compile\n");
  process.exit(0);
}
const run = (args) => spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" });
const clean = run([fileURLToPath(new URL("clean-dist.mjs", import.meta.url)), root]);
if (clean.status !== 0) process.exit(clean.status ?? 1);
const tsc = run([
  path.join(root, "node_modules", "typescript", "bin", "tsc"),
  "-p",
  "tsconfig.json",
]);
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
writeFileSync(
  digestFile,
  `${JSON.stringify({ inputs: inputDigest, outputs: digestOf(outputs()) }, null, 2)}\n`,
);
