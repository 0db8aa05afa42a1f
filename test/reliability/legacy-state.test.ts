import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEGACY_DEPRECATION } from "../../providers/legacy-deprecation";
import type { RunningEmulator } from "../../src/emulator";
import {
  type EngineLocation,
  type OperationOptions,
  type OperationOutcome,
  resolveEngine,
  runOperation,
} from "../../src/engine";
import { copyCheckout, reuseBuild } from "../engine/support/checkout";
import { incidentRows } from "../engine/support/emulator-rows";
import { type EmulatorSandbox, startEmulatorSandbox } from "../engine/support/emulator-sandbox";
import { sh, shAll } from "../engine/support/shell";

const timeout = 600_000;
/** State exported from incident-sync 0.1 (e032a3d), whose stored provider names its checkout's compiled operations by path. */
const FIXTURE = join(__dirname, "..", "engine", "fixtures", "legacy-0.1");

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
    mkdirSync(join(root, "state"));
    mkdirSync(join(root, "home"));
    env = {
      HOME: join(root, "home"),
      PULUMI_HOME: join(root, "home", ".pulumi"),
      PATH: [dirname(process.execPath), engine.binDir, "/usr/local/bin", "/usr/bin", "/bin"].join(
        delimiter,
      ),
      PULUMI_CONFIG_PASSPHRASE: passphrase,
      PULUMI_SKIP_UPDATE_CHECK: "true",
    };

    // Two stacks of the demo incidents as 0.1 left them (one for incident-sync up, one for the
    // plain CLI), exported from 0.1 (see fixtures/legacy-0.1/README.md), in a checkout of this
    // release: the one that wrote them is gone, as their stored provider's path shows.
    current = copyCheckout(join(root, "current"));
    reuseBuild(current);
    await sh(`pulumi login ${backend()}`, current, env);
    // The fixture's API URL is a placeholder for this run's emulator: 0.1 stored it in the
    // stack config and in the state (the provider's config, which refresh reads).
    const withUrl = (file: string) =>
      readFileSync(join(FIXTURE, file), "utf8").replaceAll("__BASE_URL__", emulator.url);
    for (const stack of ["legacy", "legacy-plain"]) {
      writeFileSync(join(current, `Pulumi.${stack}.yaml`), withUrl(`Pulumi.${stack}.yaml`));
      writeFileSync(join(root, `${stack}.state.json`), withUrl(`${stack}.state.json`));
      await shAll(
        [
          `pulumi stack init ${stack}`,
          `pulumi stack import --file ${join(root, `${stack}.state.json`)} --stack ${stack}`,
          // The upgrade step the README gives: 0.2 reads incidents/ beside Pulumi.yaml.
          `pulumi config rm incident-sync:definitionsDir --stack ${stack}`,
        ],
        current,
        env,
      );
    }
    const exported = await sh("pulumi stack export --stack legacy", current, env);
    expect(exported.output).toContain(
      "/gone/incident-sync-0.1-checkout/dist/providers/incident-operations.js",
    );
  }, timeout);

  afterAll(async () => {
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
      // Once per run, in the run's report: the adapter is deprecated, and how to upgrade.
      expect(refresh.kind === "ran" && refresh.result.diagnostics).toEqual([
        { severity: "warning", message: LEGACY_DEPRECATION },
      ]);
      expect(
        refresh.kind === "ran" && refresh.result.changes.update,
        JSON.stringify(refresh.kind === "ran" && refresh.result),
      ).toBe(1);
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
      // Upgraded: nothing goes through the adapter any more, and nothing says it is deprecated.
      expect(again.kind === "ran" && again.result.diagnostics).toEqual([]);
    },
    timeout,
  );
});
