// The runs of `npm run reliability` (scripts/reliability.mjs), and what its record in
// bench/reliability-record.json must hold to cover the code as it is. What the runs execute or
// read is computed rather than listed, so the record's digest cannot go stale when a run starts
// to use a new file:
//   - the test files each run selects (a vitest config's `include`, or an npm script's filters),
//     the configs, and the scripts `npm run reliability` runs (package.json, followed through
//     `npm run` and `node`), with package.json and package-lock.json;
//   - the package's entry points (bin, main, exports), as the runs spawn the built CLI and their
//     projects load the package: each `dist/…` path is read as its source;
//   - then everything these import (`import`, `export … from`, `import()`, `require`), every
//     file of the repository a `join(…)`/`resolve(…)` of literal segments or a string literal
//     (`"scripts/test-totals.mjs"`, `"README.md"`) names, the scripts of every `npm start`,
//     `npm test` or `npm run S` they or the README name (tests run the README's commands), and
//     the root's dot-files where a checkout is copied as git would commit it (`.gitignore`
//     decides the copy, which holds `.nvmrc`), transitively.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * @typedef {{ name: string, command: string, args: string[], env: Record<string, string> }} Run
 * @typedef {{ name: string, bin?: unknown, main?: unknown, exports?: Record<string, unknown>, scripts?: Record<string, string> }} Manifest
 * @typedef {{ digest: string, files: Record<string, string> }} Fingerprint
 * @typedef {{ ok?: unknown, digest?: string, runs?: { ok?: unknown }[], totals?: string, inputs?: Record<string, string> }} ReliabilityRecord
 */

const CODE = /\.(?:[cm]?[jt]s)$/;
const SOURCE_EXTENSIONS = [".ts", ".mts", ".cts", ".mjs", ".js", ".cjs"];
const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire(?:\.resolve)?\s*\(\s*)["'`]([^"'`\n]+)["'`]/g;
const PATH_CALL = /\b(?:join|resolve)\(/g;
const LITERAL = /^\s*["'`]([^"'`$]*)["'`]\s*$/;
/** A string literal that may be a path from the repository's root: `"scripts/start.mjs"`. */
const PATH_LITERAL = /["'`]((?:[\w@-][\w.@-]*\/)*[\w-][\w.-]*\.\w+)["'`]/g;
/** An npm script a command line runs: `npm start`, `npm test`, `npm run --silent build`. */
const NPM_SCRIPT = /\bnpm\s+(?:(start|test)\b|run\s+(?:--\S+\s+)*([\w:-]+))/g;
/** The README's block whose commands a run takes as written (test/engine/main-job.test.ts). */
const FIRST_COMMANDS = /<!-- test: first-commands -->\s*```\w*\n([\s\S]*?)```/;
/**
 * Files the runs' scripts name but the runs do not read: the suite's floor (their totals are
 * held to test/floor-reliability.json), so regenerating it does not call for a rerun.
 */
const NOT_READ = new Set(["test/floor.json"]);

/** `file` relative to `root`, with `/`. @type {(root: string, file: string) => string} */
const relativeTo = (root, file) => path.relative(root, file).split(path.sep).join("/");

/** @param {string} file */
function isFile(file) {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** @param {string} file */
function isDirectory(file) {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The source file a built path or a module path names: `dist/src/x.js` is `src/x.ts`; a path
 * without its extension, or with `.js` for a `.ts`, or a folder with an `index`, is found.
 * @param {string} root
 * @param {string} candidate
 * @returns {string | undefined}
 */
function sourceOf(root, candidate) {
  let file = candidate;
  const fromRoot = relativeTo(root, file);
  if (fromRoot === "dist" || fromRoot.startsWith("dist/")) {
    file = path.join(root, fromRoot.slice("dist/".length)).replace(/\.d\.ts$|\.js$/, "");
  }
  if (isFile(file) && !/\.js$/.test(file)) return file;
  const bare = file.replace(/\.[cm]?js$/, "");
  for (const extension of SOURCE_EXTENSIONS) {
    if (isFile(`${bare}${extension}`)) return `${bare}${extension}`;
  }
  if (isFile(file)) return file;
  if (isDirectory(file)) {
    for (const extension of SOURCE_EXTENSIONS) {
      if (isFile(path.join(file, `index${extension}`))) return path.join(file, `index${extension}`);
    }
  }
  return undefined;
}

/**
 * Whether a file of the repository is one to digest: not installed, built or generated.
 * @param {string} root
 * @param {string} file
 */
function inRepository(root, file) {
  const relative = relativeTo(root, file);
  return (
    relative !== "" &&
    !relative.startsWith("../") &&
    !/^(?:node_modules|dist|\.git|\.incident-sync)(?:\/|$)/.test(relative) &&
    !relative.includes("/node_modules/")
  );
}

/**
 * The package's entry points as sources: bin, main and every export.
 * @param {string} root
 * @param {Manifest} manifest
 * @returns {string[]}
 */
function packageEntries(root, manifest) {
  /** @type {string[]} */
  const targets = [];
  /** @param {unknown} value */
  const collect = (value) => {
    if (typeof value === "string") targets.push(value);
    else if (value && typeof value === "object")
      for (const inner of Object.values(value)) collect(inner);
  };
  collect(manifest.bin);
  collect(manifest.main);
  collect(manifest.exports);
  return targets
    .filter((target) => !target.endsWith(".d.ts") && target !== "./package.json")
    .map((target) => sourceOf(root, path.join(root, target)))
    .filter((file) => file !== undefined);
}

/**
 * A package specifier of this package (`incident-sync/program`) as its source.
 * @param {string} root
 * @param {Manifest} manifest
 * @param {string} specifier
 */
function selfReference(root, manifest, specifier) {
  if (specifier !== manifest.name && !specifier.startsWith(`${manifest.name}/`)) return undefined;
  const subpath = `.${specifier.slice(manifest.name.length)}`;
  let target = manifest.exports?.[subpath];
  if (target && typeof target === "object")
    target = /** @type {{ default?: unknown }} */ (target).default;
  if (typeof target !== "string") return sourceOf(root, path.join(root, subpath));
  return sourceOf(root, path.join(root, target));
}

/**
 * Every file `file` names: its imports, and the repository's files its path calls name.
 * @param {string} root
 * @param {Manifest} manifest
 * @param {string} file
 * @returns {string[]}
 */
function referencesOf(root, manifest, file) {
  const text = readFileSync(file, "utf8");
  /** @type {(string | undefined)[]} */
  const found = [];
  const here = path.dirname(file);
  for (const [, specifier = ""] of text.matchAll(SPECIFIER)) {
    if (specifier.startsWith(".")) found.push(sourceOf(root, path.resolve(here, specifier)));
    else found.push(selfReference(root, manifest, specifier));
  }
  // What the code runs, not what its comments mention.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  for (const [, literal = ""] of code.matchAll(PATH_LITERAL)) {
    const named = path.join(root, literal);
    if (isFile(named) && inRepository(root, named)) found.push(named);
  }
  found.push(...namedScripts(root, manifest, code));
  // A copy of the checkout as git would commit it: .gitignore decides it, the root's dot-files
  // (.nvmrc among them) are in it.
  if (text.includes("--exclude-standard")) found.push(...rootDotFiles(root));
  for (const call of text.matchAll(PATH_CALL)) {
    const segments = literalSegments(text, (call.index ?? 0) + call[0].length);
    if (segments === undefined || segments.length === 0) continue;
    if (segments.at(-1) === "." || segments.at(-1) === "..") continue;
    // The base is an expression: the file's folder (__dirname) or the repository's root.
    for (const base of [here, root]) {
      const named = path.resolve(base, ...segments);
      const fromRoot = relativeTo(root, named);
      if (fromRoot === "" || fromRoot.startsWith("..")) continue;
      const source = sourceOf(root, named);
      if (source !== undefined) {
        found.push(source);
        break;
      }
      // A folder of data the code reads whole (the kit's workflows, the report's page scripts).
      const outside = relativeTo(named, file).startsWith("..");
      if (isDirectory(named) && inRepository(root, named) && outside) {
        found.push(...filesUnder(root, named, /./));
        break;
      }
    }
  }
  return found.filter(
    /** @returns {entry is string} */ (entry) => entry !== undefined && inRepository(root, entry),
  );
}

/**
 * The files of the npm scripts `text` runs (`npm start`, `npm run S`), through `npm run`.
 * @param {string} root
 * @param {Manifest} manifest
 * @param {string} text
 * @returns {string[]}
 */
function namedScripts(root, manifest, text) {
  /** @type {string[]} */
  const files = [];
  for (const [, direct, named] of text.matchAll(NPM_SCRIPT)) {
    const name = direct ?? named ?? "";
    if (manifest.scripts?.[name] !== undefined) files.push(...scriptFiles(root, manifest, name));
  }
  return files.filter((file) => isFile(file));
}

/**
 * The files at the repository's root whose names start with a dot (`.gitignore`, `.nvmrc`).
 * @param {string} root
 */
function rootDotFiles(root) {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.startsWith("."))
    .map((entry) => path.join(root, entry.name));
}

/**
 * The literal segments after the first argument of the call whose arguments start at `start`
 * (`join(base, "a", "b")` gives ["a", "b"]), or `undefined` when one is not a plain literal.
 * @param {string} text
 * @param {number} start
 * @returns {string[] | undefined}
 */
function literalSegments(text, start) {
  /** @type {string[]} */
  const args = [];
  let depth = 0;
  let current = "";
  for (let index = start; index < text.length; index++) {
    const character = text[index];
    if (character === "(" || character === "[" || character === "{") depth++;
    if (character === ")" || character === "]" || character === "}") {
      if (depth === 0) {
        args.push(current);
        const segments = args.slice(1).map((argument) => LITERAL.exec(argument)?.[1]);
        return segments.every((segment) => segment !== undefined)
          ? /** @type {string[]} */ (segments)
          : undefined;
      }
      depth--;
    }
    if (character === "," && depth === 0) {
      args.push(current);
      current = "";
    } else current += character;
  }
  return undefined;
}

/**
 * Files under `dir` whose path relative to the root matches `pattern`.
 * @param {string} root
 * @param {string} dir
 * @param {RegExp} pattern
 * @returns {string[]}
 */
function filesUnder(root, dir, pattern) {
  /** @type {string[]} */
  const found = [];
  /** @param {string} folder */
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (pattern.test(relativeTo(root, full))) found.push(full);
    }
  };
  if (isDirectory(dir)) walk(dir);
  return found;
}

/**
 * A glob of a vitest `include` (`test/reliability/**\/*.test.ts`) as a regular expression.
 * @param {string} glob
 */
function globPattern(glob) {
  const escaped = glob
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*\*\//g, "\u0000")
    .replace(/\*/g, "[^/]*")
    .replaceAll("\u0000", "(?:.*/)?");
  return new RegExp(`^${escaped}$`);
}

/**
 * The test files a vitest config includes, read from its `include` list.
 * @param {string} root
 * @param {string} config
 */
function includedTests(root, config) {
  const text = readFileSync(config, "utf8");
  const list = /\binclude:\s*\[([^\]]*)\]/.exec(text)?.[1] ?? "";
  const globs = [...list.matchAll(/["'`]([^"'`]+)["'`]/g)].map((match) => match[1] ?? "");
  return globs.flatMap((glob) =>
    filesUnder(root, path.join(root, glob.split("*")[0] ?? ""), globPattern(glob)),
  );
}

/**
 * The test files a vitest filter (`test/engine`, `test/cli/drift.test.ts`) selects.
 * @param {string} root
 * @param {string} filter
 */
function filteredTests(root, filter) {
  const full = path.join(root, filter);
  if (isFile(full)) return [full];
  // vitest runs every test file whose path holds the filter: `test/engine` takes test/engine-runner.
  const wanted = relativeTo(root, full);
  return filesUnder(root, path.dirname(full), /\.test\.[cm]?ts$/).filter((file) =>
    relativeTo(root, file).includes(wanted),
  );
}

/**
 * The roots of one run of scripts/reliability.mjs: `npx vitest run --config C` runs C's tests;
 * `npm run S` runs package.json's script S, whose `test/…` words are vitest's filters.
 * @param {string} root
 * @param {Manifest} manifest
 * @param {Pick<Run, "command" | "args">} run
 * @returns {string[]}
 */
function runRoots(root, manifest, run) {
  /** @type {string[]} */
  const roots = [];
  const args = run.args;
  const config = args[args.indexOf("--config") + 1];
  if (run.command === "npx" && args.includes("vitest") && config) {
    roots.push(path.join(root, config), ...includedTests(root, path.join(root, config)));
    return roots;
  }
  if (run.command === "npm" && args[0] === "run") {
    const script = manifest.scripts?.[args.at(-1) ?? ""] ?? "";
    const configured = /--config\s+(\S+)/.exec(script)?.[1] ?? "vitest.config.mts";
    roots.push(path.join(root, configured));
    for (const [word] of script.matchAll(/(?<=\s)test\/\S+/g)) {
      roots.push(...filteredTests(root, word));
    }
    return roots;
  }
  throw new Error(`reliability inputs: no rule for the run ${run.command} ${args.join(" ")}`);
}

/**
 * The files an npm script runs: its `node FILE`s and `tsc -p FILE`s, through `npm run`.
 * @param {string} root
 * @param {Manifest} manifest
 * @param {string} name
 * @param {Set<string>} [seen]
 * @returns {string[]}
 */
function scriptFiles(root, manifest, name, seen = new Set()) {
  if (seen.has(name)) return [];
  seen.add(name);
  const script = manifest.scripts?.[name] ?? "";
  /** @type {string[]} */
  const files = [];
  for (const [, file = ""] of script.matchAll(/\bnode\s+(?:--\S+\s+)*(\S+)/g)) {
    files.push(path.join(root, file));
  }
  for (const [, file = ""] of script.matchAll(/\btsc\s+-p\s+(\S+)/g)) {
    files.push(path.join(root, file));
  }
  for (const [, inner = ""] of script.matchAll(/\bnpm\s+run\s+(?:--\S+\s+)*([\w:-]+)/g)) {
    files.push(...scriptFiles(root, manifest, inner, seen));
  }
  return files;
}

/**
 * The files git would commit (tracked, or new and not ignored); `undefined` without git.
 * @param {string} root
 */
function committable(root) {
  const listed = spawnSync(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    {
      cwd: root,
      encoding: "utf8",
    },
  );
  return listed.status === 0 ? new Set(listed.stdout.split("\0").filter(Boolean)) : undefined;
}

/**
 * The test files the runs select, relative to `root`: each holds at least one test.
 * @param {string} root
 * @param {readonly Pick<Run, "command" | "args">[]} runs
 * @returns {string[]}
 */
export function reliabilityTestFiles(root, runs) {
  const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const files = runs.flatMap((run) => runRoots(root, manifest, run));
  return [...new Set(files.filter((file) => /\.test\.[cm]?ts$/.test(file)))]
    .map((file) => relativeTo(root, file))
    .sort();
}

/**
 * Every file of the repository the reliability runs (`runs`, as scripts/reliability.mjs
 * starts them under `npm run reliability`) execute or read, relative to `root`, sorted;
 * `outputs` (the record they write) are left out.
 * @param {string} root
 * @param {readonly Pick<Run, "command" | "args">[]} runs
 * @param {readonly string[]} [outputs]
 * @returns {string[]}
 */
export function reliabilityInputs(root, runs, outputs = []) {
  const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const pending = [
    path.join(root, "package.json"),
    path.join(root, "package-lock.json"),
    ...scriptFiles(root, manifest, "reliability"),
    ...packageEntries(root, manifest),
    ...runs.flatMap((run) => runRoots(root, manifest, run)),
  ].filter((file) => isFile(file));
  /** @type {Set<string>} */
  const found = new Set();
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (found.has(file)) continue;
    found.add(file);
    if (CODE.test(file)) pending.push(...referencesOf(root, manifest, file));
    else if (relativeTo(root, file) === "README.md") {
      const block = FIRST_COMMANDS.exec(readFileSync(file, "utf8"))?.[1] ?? "";
      pending.push(...namedScripts(root, manifest, block));
    }
  }
  const kept = committable(root);
  const left = new Set(outputs);
  return [...found]
    .map((file) => relativeTo(root, file))
    .filter((file) => !left.has(file) && !NOT_READ.has(file))
    .filter((file) => kept === undefined || kept.has(file))
    .sort();
}

/**
 * The runs, in order, each writing its vitest report where `reports` says.
 * @param {{ long: string, setsField: string, behaviours: string }} reports
 * @returns {Run[]}
 */
export function reliabilityRuns(reports) {
  return [
    {
      name: "R1, R5 to R10 and the engine's faults",
      command: "npx",
      args: ["vitest", "run", "--config", "vitest.reliability.config.mts"],
      // The record is of the full sizes, whatever the shell asked for (test/reliability/size.ts).
      env: { VITEST_JSON_REPORT: reports.long, INCIDENT_SYNC_RELIABILITY_SIZE: "full" },
    },
    {
      name: "sets-field",
      command: "npm",
      args: ["run", "--silent", "test:sets-field"],
      env: { VITEST_JSON_REPORT: reports.setsField },
    },
    {
      name: "behaviours",
      command: "npm",
      args: ["run", "--silent", "test:behaviours"],
      env: { VITEST_JSON_REPORT: reports.behaviours },
    },
  ];
}

/**
 * The runs' inputs under `root` (the record itself left out): each file's sha256 (its first 16
 * hex digits), and one sha256 over every path and content.
 * @param {string} root
 * @param {readonly Pick<Run, "command" | "args">[]} runs
 * @param {string} recordFile
 * @returns {Fingerprint}
 */
export function fingerprintOf(root, runs, recordFile) {
  /** @type {Record<string, string>} */
  const files = {};
  const hash = createHash("sha256");
  for (const file of reliabilityInputs(root, runs, [relativeTo(root, recordFile)])) {
    const content = readFileSync(path.join(root, file));
    files[file] = createHash("sha256").update(content).digest("hex").slice(0, 16);
    hash.update(`${file}\0`).update(content).update("\0");
  }
  return { digest: hash.digest("hex"), files };
}

/**
 * Why `record` is not a passing run of the code as it is (`now`, from `fingerprintOf`), one
 * sentence each; none when it is: every run passed, its totals count at least one passing test
 * per test file and none failed or skipped, and its digest is the code's.
 * @param {string} root
 * @param {readonly Pick<Run, "command" | "args">[]} runs
 * @param {ReliabilityRecord | undefined} record
 * @param {Fingerprint} now
 * @returns {string[]}
 */
export function recordProblems(root, runs, record, now) {
  if (record === undefined) return ["there is no record"];
  /** @type {string[]} */
  const problems = [];
  if (record.ok !== true) problems.push("the record is not of a passing run (ok is not true)");
  const recorded = record.runs ?? [];
  if (recorded.length !== runs.length || !recorded.every((run) => run.ok === true)) {
    problems.push(`the record does not hold ${runs.length} passing runs`);
  }
  const totals = /^tests: (\d+) passed, (\d+) failed$/.exec(record.totals ?? "");
  const files = reliabilityTestFiles(root, runs).length;
  if (totals === null || Number(totals[2]) !== 0 || Number(totals[1]) < files) {
    problems.push(
      `its totals ("${record.totals}") are not the passing tests of ${files} test files, with none failed or skipped`,
    );
  }
  if (record.digest !== now.digest) {
    const before = record.inputs ?? {};
    const changed = [...new Set([...Object.keys(before), ...Object.keys(now.files)])]
      .filter((file) => before[file] !== now.files[file])
      .sort();
    /** @param {string} file */
    const named = (file) =>
      before[file] === undefined
        ? `${file} (new)`
        : now.files[file] === undefined
          ? `${file} (gone)`
          : file;
    const shown = changed.slice(0, 10).map(named);
    const more = changed.length - shown.length;
    problems.push(
      `the code the runs use changed since (${record.digest?.slice(0, 12) ?? "none"} → ${now.digest.slice(0, 12)}): ${shown.join(", ")}${more > 0 ? ` and ${more} more` : ""}`,
    );
  }
  return problems;
}
