import { spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../src/emulator";
import { type EngineLocation, resolveEngine } from "../../src/engine";
import { readAppliedFile } from "../../src/reports/drift/applied";
import { copyCheckout, reuseBuild, tagOperations } from "./support/checkout";
import { incidentRows } from "./support/emulator-rows";
import { type EmulatorSandbox, startEmulatorSandbox } from "./support/emulator-sandbox";
import { filesContaining } from "./support/files";
import { plainCliBlock } from "./support/plain-cli-blocks";
import { plainCliEnv } from "./support/plain-cli-env";
import { eventually, killRun } from "./support/processes";
import { type ShellResult, sh, shAll } from "./support/shell";

const timeout = 600_000;

/**
 * The user's path, with no harness: the plain `pulumi` CLI (with its Node.js language host)
 * in a checkout, with only the variables the README asks for. Every step builds on the state
 * the previous one left, as a team's stack does.
 */
describe("plain pulumi in a checkout, as the README tells a Pulumi user", () => {
  let engine: EngineLocation;
  let emulator: RunningEmulator;
  let db: DatabaseSync;
  let root: string;
  let sandbox: EmulatorSandbox | undefined;
  let checkout: string;
  let env: Record<string, string>;
  const passphrase = "plain-cli-test-passphrase";
  const operationsLog = () => join(root, "operations.log");

  const live = () => incidentRows(db, emulator.demo.accountId);
  const editDefinition = (file: string, edit: (text: string) => string) => {
    const path = join(checkout, "incidents", file);
    writeFileSync(path, edit(readFileSync(path, "utf8")));
  };
  const run = (line: string, cwd = checkout) => sh(line, cwd, env);
  const runBlock = (name: string, cwd = checkout) => shAll(plainCliBlock(name), cwd, env);

  beforeAll(async () => {
    engine = await resolveEngine();
    sandbox = await startEmulatorSandbox("plain", "demo");
    ({ root, emulator, db } = sandbox);
    checkout = copyCheckout(join(root, "checkout-a"));
    // What the setup block's `npm ci` leaves, from this checkout's install: `.ci/run` and the
    // fresh-machine check run that `npm ci` itself on a fresh clone, and the last test below
    // runs a real `npm ci` of a project that installs the packed package.
    reuseBuild(checkout);
    env = plainCliEnv(engine, join(root, "home"), {
      PULUMI_CONFIG_PASSPHRASE: passphrase,
      MONITORING_API_URL: emulator.url,
      MONITORING_ACCOUNT_ID: emulator.demo.accountId,
      MONITORING_API_KEY: emulator.demo.apiKey,
    });
  }, timeout);

  afterAll(async () => {
    await sandbox?.close();
  });

  it(
    "sets up a stack with the README's commands, the key going in through stdin",
    async () => {
      const [install, ...rest] = plainCliBlock("setup");
      expect(install).toBe("npm ci");
      const results = await shAll(rest, checkout, env);
      expect(results.map((result) => result.line)).toContain(
        "printf '%s' \"$MONITORING_API_KEY\" | pulumi config set --secret incident-sync:apiKey",
      );
      expect(existsSync(join(checkout, "dist", "index.js"))).toBe(true);
      const stackFile = readFileSync(join(checkout, "Pulumi.prod.yaml"), "utf8");
      expect(stackFile).toContain("secure:");
      expect(stackFile).not.toContain(emulator.demo.apiKey);
    },
    timeout,
  );

  it(
    "applies every definition with up, then finds nothing to change on a second up",
    async () => {
      const [, preview, up] = await runBlock("apply");
      // The stack and five incidents, one of them opened.
      expect(preview?.output).toContain("+ 6 to create");
      expect(up?.output).toContain("+ 6 created");
      for (const id of [
        "inc-api-errors",
        "inc-checkout-latency",
        "inc-db-maintenance",
        "inc-login-failures",
      ]) {
        expect(live().get(id)).toBeDefined();
      }
      const again = await run("pulumi up --yes --skip-preview");
      expect(again.output).toContain("6 unchanged");
    },
    timeout,
  );

  it(
    "prints no per-incident outputs on a no-change up by default; with outputs full, pulumi stack output gives them all, with the last applies pulumi stack export holds",
    async () => {
      const quiet = await run("PULUMI_SKIP_CHECKPOINTS=true pulumi up --yes --skip-preview");
      expect(quiet.code, quiet.output).toBe(0);
      const printed = printedOutputs(quiet.output);
      expect(printed).toMatch(/^ {4}summary\s*: \{/m);
      // An output's line, unchanged (indented) or changed (`+` or `~`, as a diff shows it).
      expect(printed).not.toMatch(
        /^\s+[+~]?\s*(incidents|incidentUpdates)\s*: \{|^\s+[+~]?\s*events\s*: \[/m,
      );
      expect(printed).not.toContain("inc-");
      const summary = await run("pulumi stack output summary --json");
      expect(JSON.parse(summary.output)).toMatchObject({
        outputs: "summary",
        incidents: 5,
        drifted: 0,
      });

      const [, up, incidents] = await runBlock("outputs");
      // The setting changes what is exported, never a resource.
      expect(up?.output).toContain("6 unchanged");
      expect(printedOutputs(up?.output ?? "")).toMatch(/^\s+[+~]?\s*incidentUpdates\s*: \{/m);
      expect(Object.keys(JSON.parse(incidents?.output ?? "")).sort()).toEqual([
        expect.stringMatching(/^[0-9a-f-]{36}$/),
        "inc-api-errors",
        "inc-checkout-latency",
        "inc-db-maintenance",
        "inc-login-failures",
      ]);
      // `drift --applied` reads the same last applies from the state as from that output.
      const exported = await run("pulumi stack export");
      writeFileSync(join(root, "state.json"), exported.output);
      writeFileSync(join(root, "applied.json"), incidents?.output ?? "");
      const fromState = await readAppliedFile(join(root, "state.json"));
      expect(fromState.size).toBe(5);
      expect(fromState).toEqual(await readAppliedFile(join(root, "applied.json")));
      // The rest of this stack's story runs with the default.
      expect((await run("pulumi config rm incident-sync:outputs")).code).toBe(0);
    },
    timeout,
  );

  it(
    "shows an edit field by field in pulumi preview --diff, and up applies it",
    async () => {
      editDefinition("api-errors.yaml", (text) =>
        text
          .replace("name: Elevated error rate on the public API", "name: Errors on the public API")
          .replace("severity: MAJOR", "severity: CRITICAL\nonRemove: resolve"),
      );
      const [, preview, up] = await runBlock("apply");
      expect(preview?.output).toMatch(
        /~ name\s*: "Elevated error rate on the public API" => "Errors on the public API"/,
      );
      expect(preview?.output).toMatch(/~ severity\s*: "MAJOR" => "CRITICAL"/);
      expect(up?.output).toContain("~ 1 updated");
      expect(live().get("inc-api-errors")).toMatchObject({
        name: "Errors on the public API",
        severity: "CRITICAL",
      });
    },
    timeout,
  );

  it(
    "finds a status changed on the status page with refresh and with preview --refresh --expect-no-changes (exit 7), and up puts git's back",
    async () => {
      emulator.emulator.control.appendIncidentUpdate(
        emulator.demo.accountId,
        "inc-checkout-latency",
        {
          description: "Latency looks better, watching.",
          status: "MONITORING",
        },
      );
      const refresh = await run(plainCliBlock("drift")[0] ?? "");
      expect(refresh?.code).toBe(0);
      expect(refresh?.output).toContain("~ 1 updated");
      const drift = await run(plainCliBlock("drift")[1] ?? "");
      expect(drift.code).toBe(7);
      expect(drift.output).toContain("no changes were expected");
      const up = await run("pulumi up --yes --skip-preview");
      expect(up?.output).toContain("~ 1 updated");
      expect(live().get("inc-checkout-latency")?.status).toBe("INVESTIGATING");
      const clean = await run(plainCliBlock("drift")[1] ?? "");
      expect(clean.code).toBe(0);
    },
    timeout,
  );

  it(
    "after a pulumi up killed with kill -9, the README's block clears the lock it left and applies",
    async () => {
      editDefinition("api-errors.yaml", (text) =>
        text.replace(/^name: .*$/m, "name: Errors on the public API, after a kill"),
      );
      const locks = join(env.HOME ?? "", ".pulumi-state", ".pulumi", "locks");
      const killed = spawn("sh", ["-c", "pulumi up --yes --skip-preview"], {
        cwd: checkout,
        env,
        stdio: "ignore",
      });
      expect(await eventually(() => filesUnder(locks).length > 0, 60_000)).toBe(true);
      // A lost runner: the CLI and every plugin die at once.
      await killRun(killed, checkout);
      const locked = await run("pulumi up --yes --skip-preview");
      expect(locked.code).not.toBe(0);
      expect(locked.output).toContain("locked");
      const [cancel, up] = await runBlock("after-a-kill");
      expect(cancel?.code).toBe(0);
      expect(up?.code, up?.output).toBe(0);
      expect(live().get("inc-api-errors")?.name).toBe("Errors on the public API, after a kill");
    },
    timeout,
  );

  it(
    "removes definitions from a moved checkout: the released incident stays as it is, the resolved one is resolved",
    async () => {
      const moved = join(root, "checkout-b");
      renameSync(checkout, moved);
      checkout = moved;
      const before = live().get("inc-db-maintenance");
      rmSync(join(checkout, "incidents", "db-maintenance.yaml"));
      rmSync(join(checkout, "incidents", "api-errors.yaml"));
      const [, , up] = await runBlock("apply");
      expect(up?.output).toContain("- 2 deleted");
      expect(live().get("inc-db-maintenance")).toEqual(before);
      expect(live().get("inc-api-errors")?.status).toBe("RESOLVED");
    },
    timeout,
  );

  it(
    "refreshes, updates and deletes the same state from a project that installs the packed package with npm ci, running its code, not the code of the checkout that wrote the state, which still exists",
    async () => {
      const project = join(root, "consumer");
      mkdirSync(project);
      writeFileSync(
        join(project, "Pulumi.yaml"),
        "name: incident-sync\nruntime: nodejs\nmain: index.js\n",
      );
      cpSync(join(checkout, "Pulumi.prod.yaml"), join(project, "Pulumi.prod.yaml"));
      cpSync(join(checkout, "incidents"), join(project, "incidents"), { recursive: true });
      writeFileSync(
        join(project, "index.js"),
        'module.exports = require("incident-sync/program");\n',
      );
      await installPacked(project, checkout, root, run);
      rmSync(operationsLog(), { force: true });
      tagOperations(checkout, "checkout that wrote the state", operationsLog());
      tagOperations(
        join(project, "node_modules", "incident-sync"),
        "installed package",
        operationsLog(),
      );
      expect((await run("pulumi stack select prod", project)).code).toBe(0);
      expect((await run("pulumi refresh --yes --skip-preview", project)).code).toBe(0);
      writeFileSync(
        join(project, "incidents", "storefront.yaml"),
        readFileSync(join(project, "incidents", "storefront.yaml"), "utf8").replace(
          "severity: MEDIUM",
          "severity: MINOR\nreason: Only a few EU customers are affected",
        ),
      );
      expect((await run("pulumi up --yes --skip-preview", project)).output).toContain(
        "~ 1 updated",
      );
      const storefront = readFileSync(join(project, "incidents", "storefront.yaml"), "utf8");
      writeFileSync(
        join(project, "incidents", "storefront.yaml"),
        storefront.slice(0, storefront.indexOf("\n---\n") + 1),
      );
      const removed = await run("pulumi up --yes --skip-preview", project);
      expect(removed.output).toContain("- 1 deleted");
      const ran = new Set(readFileSync(operationsLog(), "utf8").trim().split("\n"));
      expect([...ran]).toEqual(["installed package"]);
    },
    timeout,
  );

  it(
    "keeps the key out of pulumi stack export and every file of the state, then destroy stops managing every incident",
    async () => {
      const exported = await run("pulumi stack export");
      expect(exported.code).toBe(0);
      expect(exported.output).not.toContain(emulator.demo.apiKey);
      expect(filesContaining(join(env.HOME ?? "", ".pulumi"), emulator.demo.apiKey)).toEqual([]);
      const [destroy] = await runBlock("destroy");
      expect(destroy?.output).toMatch(/- \d+ deleted/);
      expect(
        JSON.parse((await run("pulumi stack export")).output).deployment.resources ?? [],
      ).toEqual([]);
    },
    timeout,
  );
});

/**
 * Installs the package into `project` as a team's repository would: `npm pack` of the
 * checkout (its `dist/` is built; the pack's `prepare` would only build it again), a
 * dependency on the tarball, the lock file npm resolves for it, then a fresh `npm ci`.
 */
async function installPacked(
  project: string,
  packageDir: string,
  scratch: string,
  run: (line: string, cwd?: string) => Promise<ShellResult>,
): Promise<void> {
  const packed = await run(
    `npm pack --ignore-scripts --silent --pack-destination ${JSON.stringify(scratch)}`,
    packageDir,
  );
  expect(packed.code, packed.output).toBe(0);
  const { name, version } = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as {
    name: string;
    version: string;
  };
  const tarball = join(scratch, `${name}-${version}.tgz`);
  writeFileSync(
    join(project, "package.json"),
    `${JSON.stringify({ name: "consumer", private: true, dependencies: { "incident-sync": `file:${tarball}` } }, null, 2)}\n`,
  );
  for (const line of [
    "npm install --package-lock-only --prefer-offline",
    "npm ci --prefer-offline",
  ]) {
    const result = await run(line, project);
    expect(result.code, `${line}:\n${result.output}`).toBe(0);
  }
  expect(existsSync(join(project, "node_modules", "incident-sync", "dist", "index.js"))).toBe(true);
}

/** The stack outputs `pulumi up` printed: its "Outputs:" section. */
function printedOutputs(output: string): string {
  const start = output.indexOf("\nOutputs:\n");
  expect(start, output).toBeGreaterThan(-1);
  const end = output.indexOf("\nResources:", start);
  return output.slice(start, end === -1 ? undefined : end);
}

/** The files below `dir`, none when it does not exist. */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((name) =>
      name.endsWith(".json"),
    );
  } catch {
    return [];
  }
}
