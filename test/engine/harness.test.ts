import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_SOURCE } from "../../providers/incident";
import type { RunningEmulator } from "../../src/emulator";
import {
  type EngineLocation,
  type OperationOptions,
  type OperationOutcome,
  resolveEngine,
} from "../../src/engine";
import { renderText } from "../../src/engine/run-report";
import { INCIDENT_TYPE } from "../../src/incident";
import { formatSummary } from "../../src/program";
import {
  DEMO_SUMMARY_IN_SYNC,
  DEMO_SUMMARY_LINES,
  demoStack,
  SUMMARY_OUTPUT_KEYS,
  summaryLinesOf,
} from "../support/demo-stack";
import { copyCheckout, reuseBuild } from "./support/checkout";
import { demoOperation } from "./support/demo-operation";
import { type EmulatorSandbox, startEmulatorSandbox } from "./support/emulator-sandbox";
import { filesContaining, filesUnder } from "./support/files";
import { changesOf, ran } from "./support/outcomes";

const timeout = 300_000;

/**
 * The harness behind `incident-sync up` and `npm start` on the real engine, against the
 * emulator: one stack, driven step by step the way a team uses it.
 */
describe("incident-sync up on the real engine against the emulator", () => {
  let engine: EngineLocation;
  let emulator: RunningEmulator;
  let root: string;
  let sandbox: EmulatorSandbox | undefined;
  let project: string;
  let engineOutput: string[] = [];

  const run = (
    operation: OperationOptions["operation"],
    extra: Partial<OperationOptions> = {},
  ): Promise<OperationOutcome> =>
    demoOperation({ sandbox: sandbox!, engine, project, stackName: "harness" }, operation, {
      onOutput: (text) => engineOutput.push(text),
      ...extra,
    });
  // The state, Pulumi's home and the project's files the runs wrote (its sources quote the
  // demo key in documentation and tests, so they are not searched).
  const engineFilesWithKey = () => [
    ...filesContaining(join(root, "backend"), emulator.demo.apiKey),
    ...filesContaining(join(root, "pulumi-home"), emulator.demo.apiKey),
    ...["Pulumi.harness.yaml", "Pulumi.dev.yaml"]
      .map((file) => join(project, file))
      .filter(
        (file) => existsSync(file) && readFileSync(file, "utf8").includes(emulator.demo.apiKey),
      ),
  ];
  const edit = (file: string, change: (text: string) => string) =>
    demoStack(sandbox!, () => project).edit(file, change);
  const expectLiveMatchesDefinitions = () =>
    demoStack(sandbox!, () => project).expectLiveMatchesDefinitions();

  beforeAll(async () => {
    engine = await resolveEngine();
    sandbox = await startEmulatorSandbox("harness", "demo");
    ({ root, emulator } = sandbox);
    project = copyCheckout(join(root, "project"));
    reuseBuild(project);
  }, timeout);

  afterAll(async () => {
    await sandbox?.close();
  });

  it(
    "adopts every demo incident with up, with the default outputs: counts, drift and evidence, no per-incident map",
    async () => {
      const up = ran(await run("up"));
      expect(up.result.ok).toBe(true);
      expect(changesOf(up)).toEqual({ create: 5 });
      await expectLiveMatchesDefinitions();
      const outputs = up.outputs ?? {};
      expect(Object.keys(outputs).sort()).toEqual(SUMMARY_OUTPUT_KEYS);
      expect(outputs.summary?.value).toEqual(DEMO_SUMMARY_IN_SYNC);
      expect(outputs.drift?.value).toEqual([]);
      expect(Object.keys(outputs.heartbeats?.value as object).sort()).toEqual([
        "hb-billing-sync",
        "hb-nightly-backup",
      ]);
      expect(outputs.heartbeats?.value).not.toHaveProperty(["hb-billing-sync", "events"]);
      expect(Object.keys(outputs.errorGroups?.value as object).sort()).toEqual([
        "chk-api",
        "chk-checkout",
        "chk-web",
      ]);
      expect(summaryLinesOf(formatSummary(outputs))).toEqual(DEMO_SUMMARY_LINES);
      const text = renderText(up, project).split("\n");
      expect(text[0]).toMatch(
        /^Stack harness: changes applied \(4 adopted, 1 opened; \d+\.\d s\)$/,
      );
      // The new incident is named by the id the service gave it.
      expect(text.slice(1, 6).sort()).toEqual([
        "  + Elevated error rate on the public API (inc-api-errors) adopted",
        "  + Scheduled database maintenance (db-maintenance, inc-db-maintenance) adopted",
        "  + Slow checkout for some customers in EU (inc-checkout-latency) adopted",
        expect.stringMatching(
          /^ {2}\+ Some card payments are declined \(card-payments-declined, [0-9a-f-]{36}\) opened$/,
        ),
        "  + Some users cannot log in with SSO (inc-login-failures) adopted",
      ]);
    },
    timeout,
  );

  it(
    "finds nothing to change on a second up, at one request for the whole incident list",
    async () => {
      emulator.emulator.control.resetStats();
      const up = ran(await run("up"));
      expect(up.result.changed).toBe(false);
      expect(changesOf(up)).toEqual({});
      const { byOperation } = emulator.emulator.control.stats();
      expect(byOperation.listIncidents?.total).toBe(1);
      expect(byOperation.listIncidentUpdates).toBeUndefined();
      expect(byOperation.getIncident).toBeUndefined();
      expect(byOperation.updateIncident).toBeUndefined();
    },
    timeout,
  );

  it("keeps the API key out of every file of the backend, and stores the provider's text, which holds no path", () => {
    expect(engineFilesWithKey()).toEqual([]);
    expect(engineOutput.join("")).not.toContain(emulator.demo.apiKey);
    const stateFile = filesUnder(join(root, "backend")).find((file) =>
      /stacks\/incident-sync\/harness\.json$/.test(file),
    );
    const state = JSON.parse(readFileSync(stateFile ?? "", "utf8")) as {
      checkpoint: {
        latest: {
          resources: {
            type: string;
            inputs?: { __provider?: string };
            outputs?: { __provider?: string };
          }[];
        };
      };
    };
    const providers = state.checkpoint.latest.resources
      .filter((resource) => resource.type === INCIDENT_TYPE)
      .flatMap((resource) => [resource.inputs?.__provider, resource.outputs?.__provider]);
    expect(providers).toEqual(Array.from({ length: 10 }, () => PROVIDER_SOURCE));
    expect(PROVIDER_SOURCE).toContain('"incident-sync/provider-operations"');
    expect(PROVIDER_SOURCE).not.toContain(root);
    expect(PROVIDER_SOURCE).not.toContain("/dist/");
  });

  it(
    "previews a YAML edit as exactly the changed fields in the engine's report, and up applies it",
    async () => {
      edit("storefront.yaml", (text) =>
        text
          .replace(
            "name: Slow checkout for some customers in EU",
            "name: Slow checkout for all customers in EU",
          )
          .replace("severity: MEDIUM", "severity: MAJOR"),
      );
      const preview = ran(await run("preview"));
      expect(preview.result.incidents.filter((step) => step.op !== "same")).toMatchObject([
        { incidentId: "inc-checkout-latency", op: "update", diffs: ["name", "severity"] },
      ]);
      expect(changesOf(ran(await run("up")))).toEqual({ update: 1 });
      await expectLiveMatchesDefinitions();
    },
    timeout,
  );

  it(
    "reports an invalid definition as validate does, before the engine runs",
    async () => {
      writeFileSync(
        join(project, "incidents", "bad.yaml"),
        "id: inc-bad\nname: Broken\nsevrity: MAJOR\nstatus: INVESTIGATING\nservices: [svc-api]\n",
      );
      try {
        const outcome = await run("up");
        expect(outcome.kind).toBe("invalid-definitions");
        expect(renderText(outcome, project)).toMatchInlineSnapshot(`
          "The definitions in incidents have 2 problems, so nothing was run (incident-sync validate shows the same):
            incidents/bad.yaml:1:1: missing required field "severity" (one of CRITICAL, MAJOR, MEDIUM, MINOR) [missing-key]
            incidents/bad.yaml:3:1: unknown field "sevrity"; did you mean "severity"? [unknown-key]
          "
        `);
      } finally {
        rmSync(join(project, "incidents", "bad.yaml"));
      }
    },
    timeout,
  );

  it(
    "checks the directory the program will load: the definitionsDir the engine resolves, here Pulumi.yaml's default",
    async () => {
      const projectFile = join(project, "Pulumi.yaml");
      const committed = readFileSync(projectFile, "utf8");
      mkdirSync(join(project, "elsewhere"));
      writeFileSync(
        join(project, "elsewhere", "bad.yaml"),
        "id: inc-bad\nname: Broken\nseverity: MAJOR\nstatus: SOLVED\nservices: [svc-api]\n",
      );
      writeFileSync(
        projectFile,
        committed.replace(
          /(incident-sync:definitionsDir:\n {4}type: string\n {4}default:) incidents/,
          "$1 elsewhere",
        ),
      );
      try {
        const outcome = await run("preview");
        expect(outcome.kind).toBe("invalid-definitions");
        expect(renderText(outcome, project).split("\n")[0]).toBe(
          "The definitions in elsewhere have a problem, so nothing was run (incident-sync validate shows the same):",
        );
      } finally {
        writeFileSync(projectFile, committed);
        rmSync(join(project, "elsewhere"), { recursive: true });
      }
    },
    timeout,
  );

  it(
    "names the stack config, not the command line's flags, when the API refuses the key under Pulumi",
    async () => {
      const up = ran(
        await run("up", {
          connection: {
            baseUrl: emulator.url,
            accountId: emulator.demo.accountId,
            apiKey: "not-the-key",
          },
        }),
      );
      const warnings = up.result.incidents.flatMap((step) => step.warnings);
      expect(warnings.length).toBeGreaterThan(0);
      expect(warnings[0]).toContain(
        "401 Unauthorized: the API key is not valid. The API key was refused: check incident-sync:apiKey (pulumi config set --secret incident-sync:apiKey).",
      );
      expect(warnings.join("\n")).not.toContain("MONITORING_API_KEY");
    },
    timeout,
  );

  it("still keeps the API key out of every file after every step", () => {
    expect(engineFilesWithKey()).toEqual([]);
    expect(engineOutput.join("")).not.toContain(emulator.demo.apiKey);
    engineOutput = [];
  });
});
