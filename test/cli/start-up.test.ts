import { execFile, execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MINIMUM_NODE } from "../../src/cli/node-version";
import { startEmulator } from "../../src/emulator";
import { CLI } from "./run-cli";

const ROOT = path.join(__dirname, "..", "..");

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), "incident-sync-start-up-"));
  // Every module a run resolves, CommonJS or ES module, and every built-in Node loaded.
  await writeFile(
    path.join(scratch, "record-loads.cjs"),
    `const { registerHooks } = require("node:module");
const seen = new Set();
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    seen.add(resolved.url);
    return resolved;
  },
});
process.on("exit", () => {
  require("node:fs").writeFileSync(
    process.env.RECORD_LOADS_TO,
    JSON.stringify({ modules: [...seen], builtins: process.moduleLoadList }),
  );
});
`,
  );
  await writeFile(
    path.join(scratch, "pretend-node-20.cjs"),
    `Object.defineProperty(process.versions, "node", { value: "20.20.2" });\n`,
  );
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

function run(node: string, nodeArgs: string[], args: string[], env: NodeJS.ProcessEnv = {}) {
  return new Promise<{ exitCode: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      node,
      [...nodeArgs, CLI, ...args],
      { cwd: ROOT, encoding: "utf8", env: { PATH: process.env.PATH, ...env } },
      (error, stdout, stderr) => {
        resolve({ exitCode: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

/** The packages (`zod`, `@pulumi/pulumi`) and our own compiled files (`src/cli/main.js`) a run loaded. */
async function loadedBy(args: string[], env: NodeJS.ProcessEnv = {}) {
  const record = path.join(scratch, `loads-${args[0]}.json`);
  const result = await run(
    process.execPath,
    ["--require", path.join(scratch, "record-loads.cjs")],
    args,
    { ...env, RECORD_LOADS_TO: record },
  );
  expect(result.exitCode, result.stderr).toBe(0);
  const { modules, builtins } = JSON.parse(await readFile(record, "utf8")) as {
    modules: string[];
    builtins: string[];
  };
  const names = new Set<string>();
  for (const url of modules) {
    const inPackage = /\/node_modules\/((@[^/]+\/)?[^/]+)\//.exec(url);
    if (inPackage) names.add(inPackage[1]!);
    else if (url.includes("/dist/")) names.add(url.slice(url.lastIndexOf("/dist/") + 6));
  }
  return { names: [...names], builtins };
}

/**
 * The one emulator module the command line may load: the names of the behaviour flags' choices and
 * its variable, constants without imports, so `emulator --help` can list them.
 */
const EMULATOR_FLAG_NAMES = "src/emulator/behaviour-names.js";

/** The one client module it may load: the client's numbers the settings catalog shows, constants without imports. */
const CLIENT_DEFAULTS = "src/api/client/defaults.js";

describe("start-up", () => {
  test("validate loads no emulator, SQLite, Pulumi, HTTP client or report code", async () => {
    const { names, builtins } = await loadedBy(["validate", "incidents"]);

    expect(names).toContain("src/cli/commands/validate.js");
    expect(names).toContain("zod");
    const heavy = names.filter(
      (name) =>
        name !== EMULATOR_FLAG_NAMES &&
        name !== CLIENT_DEFAULTS &&
        /^(src\/(emulator|reports|api\/client|program|engine)\/|@pulumi\/|hono|@hono\/|ky$|cli-progress|csv-stringify)/.test(
          name,
        ),
    );
    expect(heavy).toEqual([]);
    expect(builtins.filter((name) => /sqlite|http/.test(name))).toEqual([]);
  });

  test("plan loads no emulator, SQLite, Pulumi, HTTP client or report code either", async () => {
    const { names, builtins } = await loadedBy(["plan", "--base", "HEAD", "incidents"]);

    expect(names).toContain("src/cli/commands/plan.js");
    expect(
      names.filter(
        (name) =>
          name !== EMULATOR_FLAG_NAMES &&
          name !== CLIENT_DEFAULTS &&
          /^(src\/(emulator|reports|api\/client|program|engine)\/|@pulumi\/|hono|@hono\/|ky$)/.test(
            name,
          ),
      ),
    ).toEqual([]);
    expect(builtins.filter((name) => /sqlite/.test(name))).toEqual([]);
  });

  test("an error-group export given its checks loads no definitions loader, incident rules, progress bars or other report", async () => {
    const running = await startEmulator({
      port: 0,
      seed: {
        accounts: [
          {
            id: "acct-export",
            apiKeys: ["export-key"],
            generatedErrorGroups: [{ checkId: "chk-export", count: 150 }],
          },
        ],
      },
    });
    try {
      const { names } = await loadedBy(
        ["report", "errors", "--check", "chk-export", "--format", "csv", "--no-progress"],
        {
          MONITORING_API_URL: running.url,
          MONITORING_API_KEY: "export-key",
          MONITORING_ACCOUNT_ID: "acct-export",
        },
      );
      expect(names).toContain("src/cli/commands/report-errors.js");
      expect(names).toContain("csv-stringify");
      expect(
        names.filter((name) =>
          /^(js-yaml|cli-progress|src\/(definitions\/(?!problem|stack-name|stack-entries|backend|position|invalid-definitions-error|issue-message)|incident|reports\/(?!errors|evidence\/absent|shared\/(output|csv-writer|async-streams|check-names))|emulator\/(?!behaviour-names)|program|engine))/.test(
            name,
          ),
        ),
      ).toEqual([]);
    } finally {
      await running.close();
    }
  });

  test("the emulator and client modules the command line loads hold only constants: they import nothing", () => {
    for (const module of [EMULATOR_FLAG_NAMES, CLIENT_DEFAULTS]) {
      const compiled = readFileSync(path.join(ROOT, "dist", module), "utf8");
      expect(compiled, module).not.toMatch(/\brequire\(/);
    }
  });

  test("--help loads the command line and nothing that runs a command", async () => {
    const { names } = await loadedBy(["--help"]);
    expect(names.filter((name) => !name.startsWith("src/cli/")).sort()).toEqual([
      "commander",
      // The client's numbers, which the settings catalog shows: constants without imports.
      CLIENT_DEFAULTS,
      // A leaf: where Node's compile cache goes (the user's cache folder, not TMPDIR).
      "src/compile-cache.js",
      "src/definitions/problem.js",
      // A leaf: --stack is checked by its pattern.
      "src/definitions/stack-name.js",
      EMULATOR_FLAG_NAMES,
      // A leaf: fit-comment's help names GitHub's limit from it.
      "src/markdown.js",
      "src/package-root.js",
      "src/package-version.js",
      // The optional packages (the emulator's, the reports' CSV and HTML), which a command
      // checks for before it loads its work.
      "src/peer-packages.js",
      // A leaf: the one sanitiser of text on its way to a terminal, which problems and
      // Markdown call.
      "src/safe-text.js",
      // Every setting's names, bounds and defaults, which the flags' help shows.
      "src/settings/catalog.js",
      "src/settings/names.js",
      // A leaf: the base of the errors a user can fix.
      "src/user-error.js",
    ]);
    // Besides the command modules, only their leaves of names and formats (`*-format`,
    // `*-options`: constants and types a command's help and its work both use) load.
    expect(
      names.filter((name) =>
        /^src\/cli\/commands\/[a-z-]+(?<!-command|-format|-options)\.js$/.test(name),
      ),
    ).toEqual([]);
  });
});

describe("the compile cache", () => {
  /** A run of `validate` with an empty TMPDIR and a fresh home; what each folder then holds. */
  async function validateWith(env: NodeJS.ProcessEnv) {
    const home = await mkdtemp(path.join(scratch, "home-"));
    const tmp = path.join(home, "tmp");
    await mkdir(tmp);
    const result = await run(process.execPath, [], ["validate"], {
      HOME: home,
      TMPDIR: tmp,
      ...env,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const files = async (dir: string) =>
      existsSync(dir) ? await readdir(dir, { recursive: true }) : [];
    return { home, tmp: await files(tmp), cache: files };
  }

  test("goes to the user's cache folder, and nothing is written into TMPDIR", async () => {
    const ran = await validateWith({});
    expect(ran.tmp).toEqual([]);
    expect(
      (await ran.cache(path.join(ran.home, ".cache", "incident-sync", "compile-cache"))).length,
    ).toBeGreaterThan(0);
  });

  test("goes under XDG_CACHE_HOME when it is set, and nowhere with NODE_DISABLE_COMPILE_CACHE", async () => {
    const xdg = await mkdtemp(path.join(scratch, "xdg-"));
    const inXdg = await validateWith({ XDG_CACHE_HOME: xdg });
    expect(inXdg.tmp).toEqual([]);
    expect(
      (await inXdg.cache(path.join(xdg, "incident-sync", "compile-cache"))).length,
    ).toBeGreaterThan(0);

    const off = await validateWith({ NODE_DISABLE_COMPILE_CACHE: "1" });
    expect(off.tmp).toEqual([]);
    expect(await off.cache(path.join(off.home, ".cache"))).toEqual([]);
  });
});

describe("the Node.js version check", () => {
  test("on a Node older than the minimum every command says what to install, before loading anything else", async () => {
    const record = path.join(scratch, "loads-old.json");
    const result = await run(
      process.execPath,
      [
        "--require",
        path.join(scratch, "pretend-node-20.cjs"),
        "--require",
        path.join(scratch, "record-loads.cjs"),
      ],
      ["validate", "incidents"],
      { RECORD_LOADS_TO: record },
    );

    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatchInlineSnapshot(`
      "incident-sync needs Node.js 22.16.0 or newer (24 LTS recommended); this is Node.js 20.20.2.
      Install Node.js 24 LTS: with nvm, "nvm install 24" (the repository's .nvmrc says 24), or from https://nodejs.org/.
      In a clone of the repository, "npm run" scripts already use the Node.js 24 of the "node" devDependency.
      "
    `);
    const { modules } = JSON.parse(await readFile(record, "utf8")) as { modules: string[] };
    expect(
      modules
        .filter((url) => url.includes("/dist/"))
        .map((url) => url.slice(url.lastIndexOf("/dist/") + 6))
        .sort(),
    ).toEqual(["src/cli/main.js", "src/cli/node-version.js"]);
  });

  test("the machine's own older Node.js gets the same message instead of a stack trace", async () => {
    const older = olderNodes();
    expect(
      older,
      `no Node.js older than ${MINIMUM_NODE} found on PATH or in /usr/local/bin`,
    ).not.toEqual([]);
    for (const { node, version } of older) {
      for (const args of [["validate", "incidents"], ["emulator"], ["--version"]]) {
        const result = await run(node, [], args);
        expect(result.exitCode, `${node} ${args.join(" ")}`).toBe(1);
        expect(result.stderr.split("\n")[0]).toBe(
          `incident-sync needs Node.js ${MINIMUM_NODE} or newer (24 LTS recommended); this is Node.js ${version}.`,
        );
      }
    }
  });

  test("the minimum is the one package.json declares in engines", () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
      engines: { node: string };
    };
    expect(manifest.engines.node).toBe(`>=${MINIMUM_NODE}`);
  });
});

/** Every `node` on PATH (and the usual system place) older than the minimum, with its version. */
function olderNodes(): { node: string; version: string }[] {
  const candidates = new Set<string>(["/usr/local/bin/node", "/usr/bin/node"]);
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    candidates.add(path.join(dir, "node"));
  }
  const found: { node: string; version: string }[] = [];
  for (const node of candidates) {
    if (!existsSync(node)) continue;
    const version = execFileSync(node, ["-p", "process.versions.node"], {
      encoding: "utf8",
    }).trim();
    const [major = 0, minor = 0] = version.split(".").map(Number);
    const [minMajor = 0, minMinor = 0] = MINIMUM_NODE.split(".").map(Number);
    const older = major < minMajor || (major === minMajor && minor < minMinor);
    if (older && !found.some((other) => other.version === version)) found.push({ node, version });
  }
  return found;
}
