import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../src/emulator";
import {
  type EngineLocation,
  type OperationOptions,
  type OperationOutcome,
  resolveEngine,
  runOperation,
} from "../../src/engine";
import type { TestServer } from "../support/http-server";
import { copyCheckout, installCheckout, repoRoot } from "./support/checkout";
import { startCompletingProxy } from "./support/completing-proxy";
import { incidentRows } from "./support/emulator-rows";
import { type EmulatorSandbox, startEmulatorSandbox } from "./support/emulator-sandbox";
import { sh, shAll } from "./support/shell";

const timeout = 600_000;
/** The last release whose stored provider names its checkout's compiled operations by path. */
const LEGACY = "e032a3d";

/**
 * The compatibility promise for state written by incident-sync 0.1: its resources still
 * refresh and delete from another checkout, here after the checkout that wrote them is gone.
 */
describe("state written by incident-sync 0.1", () => {
  let engine: EngineLocation;
  let emulator: RunningEmulator;
  let db: DatabaseSync;
  let root: string;
  let sandbox: EmulatorSandbox | undefined;
  let proxy: TestServer | undefined;
  let current: string;
  let env: Record<string, string>;
  const passphrase = "legacy-passphrase";
  const backend = () => `file://${join(root, "state")}`;

  const run = (operation: OperationOptions["operation"]): Promise<OperationOutcome> =>
    runOperation({
      operation,
      projectDir: current,
      stackName: "legacy",
      backendUrl: backend(),
      passphrase,
      pulumiHome: join(root, "home", ".pulumi"),
      engine,
      connection: {
        baseUrl: emulator.url,
        accountId: emulator.demo.accountId,
        apiKey: emulator.demo.apiKey,
      },
      log: () => {},
    });

  beforeAll(async () => {
    engine = await resolveEngine();
    sandbox = await startEmulatorSandbox("legacy", "demo");
    ({ root, emulator, db } = sandbox);
    // 0.1 sent services without name and accountId, which the service (and so the emulator)
    // refuses: its stacks reach the emulator through a proxy that completes them.
    proxy = await startCompletingProxy(emulator.url, emulator.demo.accountId);
    mkdirSync(join(root, "state"));
    mkdirSync(join(root, "home"));

    // The 0.1 checkout, built, applying the demo definitions with the plain CLI.
    const old = join(root, "old");
    mkdirSync(old);
    const archive = join(root, "legacy.tar");
    execFileSync("git", ["archive", "--output", archive, LEGACY], { cwd: repoRoot });
    execFileSync("tar", ["-x", "-f", archive, "-C", old]);
    symlinkSync(join(repoRoot, "node_modules"), join(old, "node_modules"), "dir");
    const build = spawnSync(
      process.execPath,
      [join(repoRoot, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"],
      { cwd: old, encoding: "utf8" },
    );
    expect(build.status, build.stdout + build.stderr).toBe(0);
    env = {
      HOME: join(root, "home"),
      PULUMI_HOME: join(root, "home", ".pulumi"),
      PATH: [dirname(process.execPath), engine.binDir, "/usr/local/bin", "/usr/bin", "/bin"].join(
        delimiter,
      ),
      PULUMI_CONFIG_PASSPHRASE: passphrase,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      API_KEY: emulator.demo.apiKey,
    };
    // Two stacks of the same incidents: one for incident-sync up, one for the plain CLI.
    await sh(`pulumi login ${backend()}`, old, env);
    for (const stack of ["legacy", "legacy-plain"]) {
      await shAll(
        [
          `pulumi stack init ${stack}`,
          `pulumi config set incident-sync:baseUrl ${proxy.url}`,
          `pulumi config set incident-sync:accountId ${emulator.demo.accountId}`,
          'printf %s "$API_KEY" | pulumi config set --secret incident-sync:apiKey',
          // 0.1 resolved the directory against the working directory: it needed an absolute one.
          `pulumi config set incident-sync:definitionsDir ${join(old, "incidents")}`,
          "pulumi up --yes --skip-preview",
        ],
        old,
        env,
      );
    }
    const exported = await sh("pulumi stack export", old, env);
    expect(exported.output).toContain(join(old, "dist", "providers", "incident-operations.js"));

    // The checkout moves on: a new one has the stack file (as git keeps it); the old is gone.
    current = copyCheckout(join(root, "current"));
    installCheckout(current);
    for (const stack of ["legacy", "legacy-plain"]) {
      copyFileSync(join(old, `Pulumi.${stack}.yaml`), join(current, `Pulumi.${stack}.yaml`));
    }
    rmSync(old, { recursive: true, force: true });
    // The upgrade step the README gives: 0.2 reads incidents/ beside Pulumi.yaml.
    for (const stack of ["legacy", "legacy-plain"]) {
      await shAll([`pulumi config rm incident-sync:definitionsDir --stack ${stack}`], current, env);
    }
  }, timeout);

  afterAll(async () => {
    await proxy?.close();
    await sandbox?.close();
  });

  it(
    "with the plain CLI, one pulumi up from another checkout stores the current provider, and refresh works after it",
    async () => {
      // Before any definition is removed, as the README says: a delete goes through the
      // stored 0.1 provider, which finds no code from a moved checkout.
      const plain = (line: string) => sh(line, current, env);
      const up = await plain("pulumi up --yes --skip-preview --stack legacy-plain");
      expect(up.code, up.output).toBe(0);
      const exported = await plain("pulumi stack export --stack legacy-plain");
      expect(exported.output).not.toContain("/old/");
      const refresh = await plain("pulumi refresh --yes --skip-preview --stack legacy-plain");
      expect(refresh.code, refresh.output).toBe(0);
    },
    timeout,
  );

  it(
    "refreshes from another checkout once the one that wrote it is gone",
    async () => {
      emulator.emulator.control.appendIncidentUpdate(
        emulator.demo.accountId,
        "inc-checkout-latency",
        {
          description: "Better now",
          status: "MONITORING",
        },
      );
      const refresh = await run("refresh");
      expect(refresh.kind === "ran" && refresh.result.ok, JSON.stringify(refresh)).toBe(true);
      expect(refresh.kind === "ran" && refresh.result.changes.update).toBe(1);
    },
    timeout,
  );

  it(
    "deletes a removed definition's incident through the stored 0.1 provider, and the same up stores the new provider for the others",
    async () => {
      const definitions = join(current, "incidents", "storefront.yaml");
      // inc-login-failures says onRemove: resolve; it goes, inc-checkout-latency stays.
      writeFileSync(
        definitions,
        "id: inc-checkout-latency\nname: Slow checkout for some customers in EU\nseverity: MEDIUM\nstatus: INVESTIGATING\nservices:\n  - id: svc-checkout\n    name: Checkout\n",
      );
      emulator.emulator.control.appendIncidentUpdate(
        emulator.demo.accountId,
        "inc-login-failures",
        {
          description: "Back again",
          status: "IDENTIFIED",
        },
      );
      const up = await run("up");
      expect(up.kind === "ran" && up.result.ok, JSON.stringify(up)).toBe(true);
      expect(up.kind === "ran" && up.result.changes).toMatchObject({ delete: 1, update: 3 });
      expect(incidentRows(db, emulator.demo.accountId).get("inc-login-failures")?.status).toBe(
        "RESOLVED",
      );
      expect(incidentRows(db, emulator.demo.accountId).get("inc-checkout-latency")?.status).toBe(
        "INVESTIGATING",
      );
      const again = await run("up");
      expect(again.kind === "ran" && again.result.changed).toBe(false);
    },
    timeout,
  );
});
