import { type ChildProcess, spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { type EngineLocation, resolveEngine } from "../../src/engine";
import { OPTIONAL_PACKAGES } from "../../src/peer-packages";
import { docBlock } from "../support/doc-blocks";
import { brokenLinks, relativeLinks } from "../support/doc-links";
import { gitIdentity } from "../support/git-env";

const ROOT = resolve(__dirname, "..", "..");
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  name: string;
  version: string;
  peerDependencies: Record<string, string>;
};
/** The lower bound of the `@pulumi/pulumi` peer range, which the whole path runs on. */
const LOWEST_PULUMI = (manifest.peerDependencies["@pulumi/pulumi"] ?? "").replace(/^\^/, "");
/** The newest `@pulumi/pulumi` tested, in the project that has nothing optional. */
const NEWEST_PULUMI = "3.270.0";
const INSTALL = "npm install --no-audit --no-fund --prefer-offline";
const timeout = 300_000;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** One command line with bash, as a user's terminal runs it; asynchronous, so runs overlap. */
function sh(line: string, cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn("bash", ["-c", line], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", fail);
    child.on("close", (code) => done({ code: code ?? 1, stdout, stderr }));
  });
}

async function must(line: string, cwd: string, env?: NodeJS.ProcessEnv): Promise<Run> {
  const run = await sh(line, cwd, env);
  if (run.code !== 0)
    throw new Error(`\`${line}\` exited ${run.code}:\n${run.stdout}${run.stderr}`);
  return run;
}

/** A new project of the user's: a package.json, then the packages as npm installs them. */
async function project(dir: string, packages: readonly string[]): Promise<string> {
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), '{ "name": "consumer", "private": true }\n');
  await must(`${INSTALL} ${packages.join(" ")}`, dir);
  return dir;
}

/** PATH without any `pulumi`: the machine's own directories, Node 24 first. */
function pathWithoutPulumi(): string[] {
  const dirs = (process.env.PATH ?? "").split(delimiter);
  return [
    dirname(process.execPath),
    ...dirs.filter((dir) => dir !== "" && !existsSync(join(dir, "pulumi"))),
  ];
}

/**
 * incident-sync as a user gets it: `npm pack` of this checkout (its `dist/` built, as
 * `npm test` builds it first), installed from the tarball into new projects outside the
 * repository, and run there with npx. One project has the lowest `@pulumi/pulumi` the peer
 * range allows and the emulator's optional packages, and runs `up` on a Pulumi install on
 * PATH; the other has the newest `@pulumi/pulumi` tested and nothing optional.
 */
describe("the packed package, installed in a new project", () => {
  let scratch: string;
  let full: string;
  let bare: string;
  /** A new git repository of a team's, which only the README's commands set up. */
  let team: string;
  let engine: EngineLocation;
  /** The user's environment: Node 24 and nothing of this checkout, no Pulumi yet. */
  let userEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), "incident-sync-package-"));
    engine = await resolveEngine();
    await must(`npm pack --ignore-scripts --silent --pack-destination ${scratch}`, ROOT);
    const tarball = join(scratch, `${manifest.name}-${manifest.version}.tgz`);
    [full, bare] = await Promise.all([
      project(join(scratch, "full"), [
        tarball,
        `@pulumi/pulumi@${LOWEST_PULUMI}`,
        "hono",
        "@hono/node-server",
      ]),
      project(join(scratch, "bare"), [tarball, `@pulumi/pulumi@${NEWEST_PULUMI}`]),
    ]);
    // The team's install is the full project's (the same packages): copied, not installed
    // a third time, before anything else is written there.
    team = join(scratch, "team");
    for (const entry of ["package.json", "package-lock.json", "node_modules"]) {
      cpSync(join(full, entry), join(team, entry), { recursive: true, verbatimSymlinks: true });
    }
    const {
      INCIDENT_SYNC_PULUMI_BIN: _bin,
      MONITORING_API_KEY: _key,
      MONITORING_API_URL: _url,
      MONITORING_ACCOUNT_ID: _account,
      ...inherited
    } = process.env;
    userEnv = {
      ...inherited,
      PATH: pathWithoutPulumi().join(delimiter),
      // No engine cache of an earlier checkout either: the package must not need one.
      XDG_CACHE_HOME: join(scratch, "cache"),
    };
    for (const dir of [full, bare]) {
      mkdirSync(join(dir, "incidents"));
      writeFileSync(
        join(dir, "incidents", "api.yaml"),
        [
          "id: inc-api-errors",
          "name: Elevated error rate on the public API",
          "severity: MAJOR",
          "status: IDENTIFIED",
          "services:",
          "  - { id: svc-api, name: Public API }",
          "",
        ].join("\n"),
      );
      writeFileSync(
        join(dir, "Pulumi.yaml"),
        "name: my-incidents\nruntime: nodejs\nmain: index.js\n",
      );
      writeFileSync(join(dir, "index.js"), 'module.exports = require("incident-sync/program");\n');
    }
  }, timeout);

  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("ships the compiled code, the schema and the demo seed, and no build step of the checkout", () => {
    const installed = join(full, "node_modules", "incident-sync");
    expect(existsSync(join(installed, "dist", "src", "cli", "main.js"))).toBe(true);
    expect(existsSync(join(installed, "schema", "incident.schema.json"))).toBe(true);
    expect(existsSync(join(installed, "examples", "seed", "demo.yaml"))).toBe(true);
    expect(
      existsSync(join(installed, "examples", "github", "workflows", "incidents-apply.yml")),
    ).toBe(true);
    for (const absent of [
      "scripts",
      "test",
      "bench",
      "src/cli",
      "dist/scripts",
      ".incident-sync",
    ]) {
      expect(existsSync(join(installed, absent)), absent).toBe(false);
    }
  });

  it("ships the docs its README links to: every link of the installed README resolves, and package.json names the repository", () => {
    const installed = join(full, "node_modules", "incident-sync");
    const links = relativeLinks(installed, "README.md");
    // The README's pages (docs/, the architecture, the benchmarks), not a README without links.
    expect(links.filter(({ target }) => target.startsWith("docs/")).length).toBeGreaterThan(10);
    expect(brokenLinks(installed, "README.md")).toEqual([]);
    const { repository } = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as {
      repository?: { type?: string; url?: string };
    };
    expect(repository?.type).toBe("git");
    expect(repository?.url).toMatch(/^git\+https:\/\/github\.com\/[\w.-]+\/incident-sync\.git$/);
  });

  it("validates the project's definitions with npx incident-sync validate", async () => {
    const run = await sh("npx incident-sync validate", full, userEnv);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("incidents: 1 definition in 1 file, all valid.\n");
  });

  it("plans a change against git with npx incident-sync plan", async () => {
    const git = "git -c user.name=t -c user.email=t@example.com";
    await must(`git init -q && ${git} add incidents && ${git} commit -qm base`, full, userEnv);
    const file = join(full, "incidents", "api.yaml");
    const declared = readFileSync(file, "utf8");
    writeFileSync(file, declared.replace("status: IDENTIFIED", "status: MONITORING"));
    try {
      const run = await sh("npx incident-sync plan --base HEAD --format json", full, userEnv);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stdout).toContain('"inc-api-errors"');
    } finally {
      writeFileSync(file, declared);
    }
  });

  it("serves the emulator and writes a report from it with npx incident-sync", async () => {
    const emulator = spawn(
      join(full, "node_modules", ".bin", "incident-sync"),
      ["emulator", "--port", "0", "--format", "json"],
      { cwd: full, env: userEnv, stdio: ["ignore", "pipe", "pipe"], detached: true },
    );
    try {
      const { url, apiKey, accountId } = JSON.parse(await firstLine(emulator)) as {
        url: string;
        apiKey: string;
        accountId: string;
      };
      const run = await sh(
        `npx incident-sync report heartbeats --check hb-nightly-backup --format markdown --api-url ${url} --account-id ${accountId}`,
        full,
        { ...userEnv, MONITORING_API_KEY: apiKey },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("hb-nightly-backup");
    } finally {
      if (emulator.pid !== undefined) process.kill(-emulator.pid, "SIGTERM");
    }
  });

  it(
    "runs up --emulator on the Pulumi install on PATH (pulumi and pulumi-language-nodejs), building nothing",
    async () => {
      const withPulumi = { ...userEnv, PATH: [engine.binDir, userEnv.PATH].join(delimiter) };
      const run = await sh("npx incident-sync up --emulator --format json", full, withPulumi);
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as {
        ok: boolean;
        incidents: { incidentId: string; action: string }[];
      };
      expect(report.ok).toBe(true);
      expect(report.incidents.map(({ incidentId, action }) => ({ incidentId, action }))).toEqual([
        { incidentId: "inc-api-errors", action: "adopted" },
      ]);
      // No engine built into the user's cache (the CLI's compile cache may be there).
      expect(existsSync(join(userEnv.XDG_CACHE_HOME ?? "", "incident-sync", "pulumi"))).toBe(false);
    },
    timeout,
  );

  it("says how to install Pulumi when there is none on PATH, before it starts anything", async () => {
    const run = await sh("npx incident-sync up --emulator", full, userEnv);
    expect(run.code).toBe(1);
    expect(run.stderr).not.toContain("Emulator (demo seed) listening");
    expect(lastLine(run.stderr).replaceAll(LOWEST_PULUMI, "<version>")).toMatchInlineSnapshot(
      `"incident-sync up: No Pulumi CLI: \`pulumi\` is not on PATH. To run the engine, install Pulumi 3.181.0 or later, best v<version> like your @pulumi/pulumi (https://www.pulumi.com/docs/install/, which puts pulumi and pulumi-language-nodejs in ~/.pulumi/bin), and put that directory on PATH or set INCIDENT_SYNC_PULUMI_BIN to it."`,
    );
  });

  it(
    "type-checks a file that imports Incident and createClient from incident-sync",
    async () => {
      writeFileSync(
        join(full, "tsconfig.json"),
        `${JSON.stringify({
          compilerOptions: {
            strict: true,
            module: "nodenext",
            moduleResolution: "nodenext",
            target: "es2024",
            skipLibCheck: true,
            noEmit: true,
            types: [],
          },
          files: ["incidents.ts"],
        })}\n`,
      );
      writeFileSync(
        join(full, "incidents.ts"),
        [
          'import { createClient, Incident } from "incident-sync";',
          "",
          'const client = createClient({ baseUrl: "http://127.0.0.1:4010", apiKey: "key" });',
          "export const updates: Promise<number> = client.incidents",
          '  .listUpdates("inc-api-errors")',
          "  .then((list) => list.length);",
          'export const incident = new Incident("api-errors", {',
          '  incidentId: "inc-api-errors",',
          '  name: "Elevated error rate on the public API",',
          '  severity: "MAJOR",',
          '  status: "IDENTIFIED",',
          '  services: [{ id: "svc-api", name: "Public API" }],',
          "});",
          "",
        ].join("\n"),
      );
      const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
      const run = await sh(`${JSON.stringify(process.execPath)} ${tsc} -p .`, full, userEnv);
      expect(run.stdout + run.stderr).toBe("");
      expect(run.code).toBe(0);
    },
    timeout,
  );

  it("loads with require() in a project with only @pulumi/pulumi and incident-sync, sharing the project's @pulumi/pulumi", async () => {
    for (const optional of ["hono", "@hono/node-server", "csv-stringify", "uplot"]) {
      expect(existsSync(join(bare, "node_modules", optional)), optional).toBe(false);
    }
    expect(existsSync(join(bare, "node_modules", "incident-sync", "node_modules", "@pulumi"))).toBe(
      false,
    );
    const script = [
      'const sync = require("incident-sync");',
      'const pulumi = require("@pulumi/pulumi/package.json");',
      "console.log(JSON.stringify({",
      "  pulumi: pulumi.version,",
      "  exports: [typeof sync.Incident, typeof sync.createClient, typeof sync.loadDefinitions],",
      '  program: typeof require("incident-sync/program"),',
      '  operations: typeof require("incident-sync/provider-operations"),',
      "  loaded: Object.keys(require.cache).filter((f) => /node_modules\\/(hono|@hono|csv-stringify|uplot)\\//.test(f)),",
      "}));",
    ].join("\n");
    writeFileSync(join(bare, "check.cjs"), script);
    const run = await sh("node check.cjs", bare, userEnv);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      pulumi: NEWEST_PULUMI,
      exports: ["function", "function", "function"],
      program: "function",
      operations: "object",
      loaded: [],
    });
    const validate = await sh("npx incident-sync validate", bare, userEnv);
    expect(validate.code, validate.stderr).toBe(0);
  });

  it("names the optional packages to install, in one line and exit 1, when a command needs one", async () => {
    const emulator = await sh("npx incident-sync up --emulator", bare, userEnv);
    const csv = await sh(
      "npx incident-sync report errors --check chk-api --format csv --api-url http://127.0.0.1:9 --account-id acct-1",
      bare,
      { ...userEnv, MONITORING_API_KEY: "key" },
    );
    const html = await sh(
      "npx incident-sync report heartbeats --check hb-nightly-backup --format html --api-url http://127.0.0.1:9 --account-id acct-1",
      bare,
      { ...userEnv, MONITORING_API_KEY: "key" },
    );
    expect([emulator.code, csv.code, html.code]).toEqual([1, 1, 1]);
    expect([emulator, csv, html].map((run) => ownLines(run.stderr))).toMatchInlineSnapshot(`
      [
        [
          "incident-sync up: The emulator needs hono and @hono/node-server, optional packages of incident-sync that are not installed: run \`npm install hono @hono/node-server\` in your project.",
        ],
        [
          "incident-sync report errors: CSV output needs csv-stringify, an optional package of incident-sync that is not installed: run \`npm install csv-stringify\` in your project.",
        ],
        [
          "incident-sync report heartbeats: An HTML report needs uplot, an optional package of incident-sync that is not installed: run \`npm install uplot\` in your project.",
        ],
      ]
    `);
    expect(csv.stdout).toMatchInlineSnapshot(`
      "error
      "CSV output needs csv-stringify, an optional package of incident-sync that is not installed: run \`npm install csv-stringify\` in your project."
      "
    `);
  });

  it("names the packages to install when a project without them requires incident-sync/emulator", async () => {
    writeFileSync(join(bare, "emulator.cjs"), 'require("incident-sync/emulator");\n');
    const run = await sh("node emulator.cjs", bare, userEnv);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "MissingPackageError: incident-sync/emulator needs hono and @hono/node-server, optional packages of incident-sync that are not installed: run `npm install hono @hono/node-server` in your project.",
    );
    expect(run.stderr).not.toContain("Cannot find module");
  });
  /**
   * The README's path for a team, word for word, in a new git repository with the package
   * installed from its tarball: init, validate, up against the emulator, a first pull request's
   * plan, and going live on a stack of a self-managed backend against an API (an emulator
   * standing in for the service): import, a commit, and up.
   */
  describe("a team's first hour, as the README tells it, with the packed package", () => {
    let live: RunningEmulator | undefined;
    const git = gitIdentity("Team");
    const teamEnv = () => ({
      ...userEnv,
      ...git,
      HOME: join(scratch, "team-home"),
      PATH: [engine.binDir, userEnv.PATH].join(delimiter),
    });

    afterAll(async () => {
      await live?.close();
    });

    it("init writes a project that validates, with the kit and its checklist", async () => {
      mkdirSync(join(scratch, "team-home"), { recursive: true });
      const runs = [];
      for (const line of docBlock("team/init").commands)
        runs.push(await must(line, team, teamEnv()));
      const [, init, validate] = runs;
      expect(init?.stdout).toContain("  npx incident-sync up --emulator\n");
      expect(init?.stdout).toContain("  gh secret set MONITORING_API_KEY --env 'incidents-prod'\n");
      expect(existsSync(join(team, ".github", "workflows", "incidents-apply.yml"))).toBe(true);
      // The page that says why each item of the checklist is there, in the installed package.
      const docs = /\((\S+) says why each one\)/.exec(init?.stdout ?? "")?.[1];
      expect(docs).toBe("node_modules/incident-sync/docs/pipeline-kit.md");
      expect(existsSync(join(team, docs ?? ""))).toBe(true);
      expect(validate?.stdout).toBe(
        "incidents: 1 definition in 1 file and the services catalog, all valid.\n",
      );
    });

    it(
      "up --emulator adopts the project's own incident into the emulator's sandbox, with a note, and writes nothing beside Pulumi.yaml",
      async () => {
        const [line] = docBlock("team/emulator").commands;
        const run = await sh(line ?? "", team, teamEnv());
        expect(run.code, run.stdout + run.stderr).toBe(0);
        expect(run.stderr).toContain(
          "Note: incident inc-example (incidents/example.yaml:6) is not in the emulator, so it was added to the emulator's sandbox as its definition declares it, for up to adopt.",
        );
        expect(run.stdout).toContain(
          "  + Example incident written by incident-sync init (inc-example) adopted\n",
        );
        expect(readFileSync(join(team, ".gitignore"), "utf8")).toContain(".incident-sync/");
        expect(existsSync(join(team, "Pulumi.dev.yaml"))).toBe(false);
      },
      timeout,
    );

    it(
      "up --emulator opens the team's own new incident (no id) with its message, once",
      async () => {
        writeFileSync(join(team, "incidents", "checkout.yaml"), docBlock("team/open").text);
        const [line] = docBlock("team/emulator").commands;
        const run = await sh(line ?? "", team, teamEnv());
        expect(run.code, run.stdout + run.stderr).toBe(0);
        expect(run.stdout).toMatch(
          /^ {2}\+ Some checkouts fail \(checkout-errors, [0-9a-f-]{36}\) opened$/m,
        );
        const again = await sh(line ?? "", team, teamEnv());
        expect(again.code, again.stdout + again.stderr).toBe(0);
        expect(again.stdout).toMatch(/^Stack dev: no changes \(2 unchanged;/m);
      },
      timeout,
    );

    it("a first change is planned against main", async () => {
      const [commit, branch, plan] = docBlock("team/plan").commands;
      await must(commit ?? "", team, teamEnv());
      await must(branch ?? "", team, teamEnv());
      const file = join(team, "incidents", "example.yaml");
      writeFileSync(file, readFileSync(file, "utf8").replace("severity: MINOR", "severity: MAJOR"));
      const run = await sh(plan ?? "", team, teamEnv());
      expect(run.code, run.stderr).toBe(2);
      expect(run.stdout).toContain("severity: MINOR → MAJOR");
    });

    it(
      "goes live on a stack of its own with the README's lines, against the service",
      async () => {
        live = await startEmulator({
          port: 0,
          seed: {
            accounts: [
              {
                id: "acct-team",
                apiKeys: ["team-key-0123456789"],
                services: [
                  { id: "svc-example", name: "Example service" },
                  { id: "svc-api", name: "Public API" },
                ],
                incidents: [
                  {
                    id: "inc-live-api",
                    name: "Elevated error rate on the public API",
                    severity: "MAJOR",
                    services: ["svc-api"],
                    updates: [
                      {
                        description: "We are looking into it.",
                        status: "INVESTIGATING",
                        created_at: "-2h",
                      },
                      {
                        description: "A bad deploy:\n\n- rolled back\n- watching — 👀",
                        status: "MONITORING",
                        created_at: "-1h",
                      },
                    ],
                  },
                  {
                    id: "inc-live-old",
                    name: "An old outage",
                    severity: "MINOR",
                    services: ["svc-api"],
                    updates: [{ description: "Resolved", status: "RESOLVED" }],
                  },
                ],
              },
            ],
          },
        });
        const script = ["set -e", ...docBlock("team/live").commands].join("\n");
        const run = await sh(script, team, {
          ...teamEnv(),
          PULUMI_CONFIG_PASSPHRASE: "team-passphrase",
          MONITORING_API_URL: live.url,
          MONITORING_ACCOUNT_ID: "acct-team",
          MONITORING_API_KEY: "team-key-0123456789",
        });
        expect(run.code, run.stdout + run.stderr).toBe(0);
        // The examples gone, the open incident imported and adopted, the resolved one left out.
        expect(run.stdout).toContain("  incidents/elevated-error-rate-on-the-public-api.yaml");
        expect(run.stdout).toContain("Left out 1 resolved incident: --all imports them too.");
        expect(run.stdout).toContain("Stack prod: changes applied (1 adopted;");
        // Adopting it posted none of its updates again: customers read each once.
        expect(live.emulator.control.stats().byOperation.postIncidentUpdate).toBeUndefined();
        const updates = await fetch(
          `${live.url}/v1/status-pages/incidents/inc-live-api/incident-updates`,
          { headers: { authorization: "Bearer team-key-0123456789" } },
        );
        expect(((await updates.json()) as unknown[]).length).toBe(2);
        expect(readFileSync(join(team, "Pulumi.prod.yaml"), "utf8")).not.toContain(
          "team-key-0123456789",
        );
        expect(
          existsSync(join(scratch, "team-home", ".pulumi-state", ".pulumi", "stacks", "consumer")),
        ).toBe(true);
      },
      timeout,
    );
  });
});

describe("README's Install block", () => {
  it("installs incident-sync with @pulumi/pulumi, then every optional package the code asks for", () => {
    const installed = docBlock("install")
      .commands.filter((line) => line.startsWith("npm install "))
      .flatMap((line) => line.slice("npm install ".length).split(/\s+/));
    expect(installed.sort()).toEqual(
      ["incident-sync", "@pulumi/pulumi", ...Object.values(OPTIONAL_PACKAGES).flat()].sort(),
    );
    expect(Object.keys(manifest.peerDependencies).sort()).toEqual(
      ["@pulumi/pulumi", ...Object.values(OPTIONAL_PACKAGES).flat()].sort(),
    );
  });
});

/** The first line a process prints on stdout; rejects with its stderr if it exits first. */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((done, fail) => {
    let stdout = "";
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes("\n")) done(stdout.slice(0, stdout.indexOf("\n")));
    });
    child.on("close", (code) => fail(new Error(`exited ${code} before a line:\n${stderr}`)));
  });
}

/** What incident-sync printed on stderr, without npm's own warnings. */
function ownLines(stderr: string): string[] {
  return stderr.split("\n").filter((line) => line !== "" && !line.startsWith("npm warn"));
}

function lastLine(stderr: string): string {
  return ownLines(stderr).at(-1) ?? "";
}
