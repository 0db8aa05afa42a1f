import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDefinitions } from "../../src/definitions";
import type { RunningEmulator } from "../../src/emulator";
import {
  type EngineLocation,
  type OperationOptions,
  type OperationOutcome,
  resolveEngine,
  runOperation,
} from "../../src/engine";
import { failureLines, renderText } from "../../src/engine/run-report";
import { formatSummary } from "../../src/program";
import { copyCheckout, installCheckout } from "./support/checkout";
import { incidentRows } from "./support/emulator-rows";
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
  let db: DatabaseSync;
  let engineOutput: string[] = [];

  const run = async (
    operation: OperationOptions["operation"],
    extra: Partial<OperationOptions> = {},
  ): Promise<OperationOutcome> =>
    runOperation({
      operation,
      projectDir: project,
      stackName: "harness",
      backendUrl: `file://${join(root, "backend")}`,
      pulumiHome: join(root, "pulumi-home"),
      passphrase: "harness-passphrase",
      engine,
      connection: {
        baseUrl: emulator.url,
        accountId: emulator.demo.accountId,
        apiKey: emulator.demo.apiKey,
      },
      settings: { retries: "8" },
      onOutput: (text) => engineOutput.push(text),
      log: () => {},
      ...extra,
    });
  const live = () => incidentRows(db, emulator.demo.accountId);
  // The state, Pulumi's home and the project's files the runs wrote (its sources quote the
  // demo key in documentation and tests, so they are not searched).
  const engineFilesWithKey = () => [
    ...filesContaining(join(root, "backend"), emulator.demo.apiKey),
    ...filesContaining(join(root, "pulumi-home"), emulator.demo.apiKey),
    ...["Pulumi.harness.yaml", "Pulumi.dev.yaml"].flatMap((file) =>
      filesContaining(project, emulator.demo.apiKey).filter(
        (found) => found === join(project, file),
      ),
    ),
  ];
  const edit = (file: string, change: (text: string) => string) => {
    const path = join(project, "incidents", file);
    writeFileSync(path, change(readFileSync(path, "utf8")));
  };
  const expectLiveMatchesDefinitions = async () => {
    const { definitions, problems } = await loadDefinitions(join(project, "incidents"));
    expect(problems).toEqual([]);
    for (const { definition } of definitions) {
      expect(live().get(definition.id)).toMatchObject({
        name: definition.name,
        severity: definition.severity,
        status: definition.status,
        services: definition.services.map((service) => service.id),
      });
    }
  };

  beforeAll(async () => {
    engine = await resolveEngine();
    sandbox = await startEmulatorSandbox("harness", "demo");
    ({ root, emulator, db } = sandbox);
    project = copyCheckout(join(root, "project"));
    installCheckout(project);
  }, timeout);

  afterAll(async () => {
    await sandbox?.close();
  });

  it(
    "adopts every demo incident with up, with outputs that label declared and live values",
    async () => {
      const up = ran(await run("up"));
      expect(up.result.ok).toBe(true);
      expect(changesOf(up)).toEqual({ create: 4 });
      await expectLiveMatchesDefinitions();
      const outputs = up.outputs ?? {};
      expect(Object.keys(outputs.incidents?.value as object).sort()).toEqual([
        "inc-api-errors",
        "inc-checkout-latency",
        "inc-db-maintenance",
        "inc-login-failures",
      ]);
      expect(outputs.drift?.value).toEqual([]);
      expect(Object.keys(outputs.heartbeats?.value as object).sort()).toEqual([
        "hb-billing-sync",
        "hb-nightly-backup",
      ]);
      expect(Object.keys(outputs.errorGroups?.value as object).sort()).toEqual([
        "chk-api",
        "chk-checkout",
        "chk-web",
      ]);
      const summary = formatSummary(outputs).split("\n");
      expect(summary.filter((line) => /^( {2}inc-| {2}hb-|\w)/.test(line))).toMatchInlineSnapshot(`
        [
          "Incidents (4), as declared in git and as live on the status page:",
          "  inc-api-errors  declared MONITORING, live MONITORING",
          "  inc-checkout-latency  declared INVESTIGATING, live INVESTIGATING",
          "  inc-db-maintenance  declared RESOLVED, live RESOLVED",
          "  inc-login-failures  declared RESOLVED, live RESOLVED",
          "Heartbeats (success ratio, last 24 h / last 7 days):",
          "  hb-billing-sync  84.62% / 85.71%  (3 events in 24 h)",
          "  hb-nightly-backup  no pings / 80%  (1 event in 24 h)",
          "Error groups (most recent first):",
          "Drift: none, the status page matches the definitions as far as the API shows (status and updates).",
        ]
      `);
      const text = renderText(up, project).split("\n");
      expect(text[0]).toMatch(/^Stack harness: changes applied \(4 adopted; \d+\.\d s\)$/);
      expect(text.slice(1, 5).sort()).toEqual([
        "  + inc-api-errors adopted",
        "  + inc-checkout-latency adopted",
        "  + inc-db-maintenance (resource db-maintenance) adopted",
        "  + inc-login-failures adopted",
      ]);
    },
    timeout,
  );

  it(
    "finds nothing to change on a second up and on a refreshing preview, at one request per incident",
    async () => {
      emulator.emulator.control.resetStats();
      const up = ran(await run("up"));
      expect(up.result.changed).toBe(false);
      expect(changesOf(up)).toEqual({});
      const { byOperation } = emulator.emulator.control.stats();
      expect(byOperation.listIncidentUpdates?.total).toBe(4);
      expect(byOperation.updateIncident).toBeUndefined();
      const preview = ran(await run("preview", { refresh: true, expectNoChanges: true }));
      expect(preview.result.ok).toBe(true);
      expect(preview.result.changed).toBe(false);
    },
    timeout,
  );

  it("keeps the API key out of every file of the backend, and the stored provider holds no path", () => {
    expect(engineFilesWithKey()).toEqual([]);
    expect(engineOutput.join("")).not.toContain(emulator.demo.apiKey);
    const stateFile = filesUnder(join(root, "backend")).find((file) =>
      /stacks\/incident-sync\/harness\.json$/.test(file),
    );
    const state = JSON.parse(readFileSync(stateFile ?? "", "utf8")) as {
      checkpoint: { latest: { resources: { type: string; outputs?: { __provider?: string } }[] } };
    };
    const providers = state.checkpoint.latest.resources
      .filter((resource) => resource.type === "pulumi-nodejs:dynamic/incident-sync:Incident")
      .map((resource) => resource.outputs?.__provider ?? "");
    expect(providers).toHaveLength(4);
    for (const provider of providers) {
      expect(provider).toContain('"incident-sync/provider-operations"');
      expect(provider).not.toContain(root);
      expect(provider).not.toContain("/dist/");
      expect(provider.length).toBeLessThan(3000);
    }
  });

  it(
    "puts back in one up a status changed on the status page, without a refresh",
    async () => {
      emulator.emulator.control.appendIncidentUpdate(
        emulator.demo.accountId,
        "inc-checkout-latency",
        {
          description: "Mitigated by hand from the UI",
          status: "MONITORING",
        },
      );
      const preview = ran(await run("preview"));
      expect(preview.result.incidents.find((step) => step.op === "update")).toMatchObject({
        incidentId: "inc-checkout-latency",
        diffs: ["observed"],
      });
      const up = ran(await run("up"));
      expect(changesOf(up)).toEqual({ update: 1 });
      expect(live().get("inc-checkout-latency")?.status).toBe("INVESTIGATING");
      expect(up.outputs?.drift?.value).toEqual([]);
      const again = ran(await run("up"));
      expect(changesOf(again)).toEqual({});
    },
    timeout,
  );

  it(
    "reverts in one up an edit made on the status page of name, severity, services and status, and with enforce always one of name alone",
    async () => {
      const before = live().get("inc-api-errors");
      emulator.emulator.control.editIncident(emulator.demo.accountId, "inc-api-errors", {
        name: "Renamed in the UI",
        severity: "CRITICAL",
        services: ["svc-api"],
        status: "IDENTIFIED",
      });
      const up = ran(await run("up"));
      expect(changesOf(up)).toEqual({ update: 1 });
      expect(live().get("inc-api-errors")).toEqual(before);

      // Without an update posted, the API shows nothing of a rename: only enforce always sees it.
      emulator.emulator.control.editIncident(emulator.demo.accountId, "inc-api-errors", {
        name: "Renamed quietly",
      });
      expect(changesOf(ran(await run("up")))).toEqual({});
      expect(live().get("inc-api-errors")?.name).toBe("Renamed quietly");
      emulator.emulator.control.resetStats();
      const enforced = ran(await run("up", { settings: { retries: "8", enforce: "always" } }));
      expect(changesOf(enforced)).toEqual({ update: 4 });
      expect(live().get("inc-api-errors")).toEqual(before);
      expect(emulator.emulator.control.stats().byOperation.updateIncident?.total).toBe(4);
    },
    timeout,
  );

  it(
    "reads back every incident with readBack all, and only those declared open with readBack open",
    async () => {
      const { definitions } = await loadDefinitions(join(project, "incidents"));
      const open = definitions.filter(({ definition }) => definition.status !== "RESOLVED");
      expect(open.length).toBeGreaterThan(0);
      expect(open.length).toBeLessThan(definitions.length);
      ran(await run("up")); // whatever came before: from here on, nothing changes
      const readsIn = async (settings: Record<string, string>) => {
        emulator.emulator.control.resetStats();
        expect(changesOf(ran(await run("up", { settings })))).toEqual({});
        return emulator.emulator.control.stats().byOperation.listIncidentUpdates?.total;
      };
      expect(await readsIn({ readBack: "all" })).toBe(definitions.length);
      expect(await readsIn({ readBack: "open" })).toBe(open.length);
    },
    timeout,
  );

  it(
    "previews a YAML edit as exactly the changed fields, and a reordering of services as no change",
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
      edit("api-errors.yaml", (text) =>
        text.replace(
          "  - id: svc-api\n    name: Public API\n  - id: svc-web\n    name: Web app\n",
          "  - id: svc-web\n    name: Web app\n  - id: svc-api\n    name: Public API\n",
        ),
      );
      expect(ran(await run("preview")).result.changed).toBe(false);
    },
    timeout,
  );

  it(
    "releases a removed definition by default, and resolves one whose onRemove says so",
    async () => {
      edit("storefront.yaml", (text) =>
        text.replace(
          "severity: MAJOR\nstatus: INVESTIGATING\n",
          "severity: MAJOR\nstatus: INVESTIGATING\nonRemove: resolve\n",
        ),
      );
      expect(changesOf(ran(await run("up")))).toEqual({ update: 1 });
      const before = live();
      edit("storefront.yaml", (text) => text.slice(text.indexOf("---\n") + 4));
      rmSync(join(project, "incidents", "api-errors.yaml"));
      const up = ran(await run("up"));
      expect(changesOf(up)).toEqual({ delete: 2 });
      expect(renderText(up, project).split("\n").slice(1, 3).sort()).toEqual([
        "  - inc-api-errors released",
        "  - inc-checkout-latency resolved and released",
      ]);
      expect(live().get("inc-checkout-latency")?.status).toBe("RESOLVED");
      expect(live().get("inc-api-errors")).toEqual(before.get("inc-api-errors"));
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
    "names an incident the account does not have, first and last, in preview and in up",
    async () => {
      writeFileSync(
        join(project, "incidents", "unknown.yaml"),
        "id: inc-does-not-exist\nname: Nobody made me\nseverity: MINOR\nstatus: INVESTIGATING\nservices: [svc-api]\n",
      );
      try {
        const preview = ran(await run("preview"));
        expect(preview.result.ok).toBe(false);
        const up = ran(await run("up"));
        expect(up.result.ok).toBe(false);
        const lines = failureLines(up);
        expect(lines).toMatchInlineSnapshot(`
          [
            "✗ inc-does-not-exist: Incident "inc-does-not-exist" does not exist in account "acct-demo". The API cannot create incidents: create it on the status page first, or fix the id in its definition.",
          ]
        `);
        const text = renderText(up, project).trim().split("\n");
        expect(text[0]).toBe(lines[0]);
        expect(text.at(-1)).toBe(lines[0]);
      } finally {
        rmSync(join(project, "incidents", "unknown.yaml"));
      }
      expect(ran(await run("preview", { expectNoChanges: true })).result.ok).toBe(true);
    },
    timeout,
  );

  it(
    "refuses to reopen an incident resolved on the status page, and applies the others",
    async () => {
      edit("db-maintenance.yaml", (text) =>
        text.replace("name: Scheduled database maintenance", "name: Database maintenance"),
      );
      emulator.emulator.control.appendIncidentUpdate(
        emulator.demo.accountId,
        "inc-login-failures",
        {
          description: "Reopened by hand",
          status: "IDENTIFIED",
        },
      );
      writeFileSync(
        join(project, "incidents", "checkout.yaml"),
        "id: inc-checkout-latency\nname: Slow checkout\nseverity: MEDIUM\nstatus: INVESTIGATING\nservices: [svc-checkout]\n",
      );
      // The resolve was a PUT (the delete of onRemove: resolve, above). A service whose PUT
      // posts a status update shows it in the updates, so preview already refuses and the
      // message names that update; one whose PUT only sets the field shows it only in the
      // PUT's answer, so up refuses on that answer, without an update to name.
      const postsUpdates = emulator.emulator.control.getBehaviour().putStatus === "posts-update";
      try {
        const preview = ran(await run("preview"));
        if (postsUpdates) {
          expect(preview.result.ok).toBe(false);
          expect(failureLines(preview)[0]).toMatch(
            /^✗ inc-checkout-latency: incident inc-checkout-latency was resolved on the status page/,
          );
        }
        const up = ran(await run("up"));
        expect(up.result.ok).toBe(false);
        const byUpdate = postsUpdates
          ? ' at \\S+ by update \\S+ \\("Status changed to RESOLVED"\\)'
          : "";
        expect(failureLines(up).join("\n")).toMatch(
          new RegExp(
            `^✗ inc-checkout-latency: incident inc-checkout-latency was resolved on the status page${byUpdate}, but its definition says INVESTIGATING: applying it would reopen the incident in front of customers\\. Set "status: RESOLVED" in the definition, or add "reopen: true" to reopen it on purpose\\.$`,
          ),
        );
        expect(live().get("inc-checkout-latency")?.status).toBe("RESOLVED");
        expect(live().get("inc-db-maintenance")?.name).toBe("Database maintenance");
        expect(live().get("inc-login-failures")?.status).toBe("RESOLVED");
      } finally {
        rmSync(join(project, "incidents", "checkout.yaml"));
      }
    },
    timeout,
  );

  it(
    "converges in one up through 20% injected 503s and 429s, every incident matching its definition",
    async () => {
      for (const id of ["inc-db-maintenance", "inc-login-failures"]) {
        emulator.emulator.control.appendIncidentUpdate(emulator.demo.accountId, id, {
          description: "Reopened by hand",
          status: "IDENTIFIED",
        });
      }
      emulator.emulator.control.setFaults({
        failRate: 0.2,
        rateLimitEvery: 7,
        retryAfterSeconds: 1,
      });
      try {
        const up = ran(await run("up"));
        expect(up.result.ok).toBe(true);
        expect(changesOf(up)).toEqual({ update: 2 });
      } finally {
        emulator.emulator.control.setFaults({});
      }
      await expectLiveMatchesDefinitions();
    },
    timeout,
  );

  it(
    "keeps going when every read-back fails: up succeeds, says which reads failed, and drift says unknown",
    async () => {
      emulator.emulator.control.setFaults({ failRate: 1 });
      try {
        const up = ran(await run("up", { settings: { retries: "0" } }));
        expect(up.result.ok).toBe(true);
        expect(changesOf(up)).toEqual({});
        const warnings = up.result.incidents.flatMap((step) => step.warnings);
        expect(warnings).toHaveLength(2);
        expect(warnings[0]).toMatch(
          /^incidents\/\S+\.yaml:\d+: could not read the updates of incident inc-\S+, so this run cannot see changes made on the status page \(the live status is unknown\): GET \/v1\/status-pages\/incidents\/inc-\S+\/incident-updates failed: 503/,
        );
        const drift = up.outputs?.drift?.value as { liveStatus: string }[];
        expect(drift.map((entry) => entry.liveStatus)).toEqual(["unknown", "unknown"]);
      } finally {
        emulator.emulator.control.setFaults({});
      }
    },
    timeout,
  );

  it(
    "warns about an evidence heartbeat that does not exist, naming its file and line, and fails with strictEvidence",
    async () => {
      edit("db-maintenance.yaml", (text) =>
        text.replace("heartbeats: [hb-nightly-backup]", "heartbeats: [hb-typo]"),
      );
      try {
        const up = ran(await run("up"));
        expect(up.result.ok).toBe(true);
        expect(up.result.diagnostics).toContainEqual({
          severity: "warning",
          message:
            'evidence heartbeat "hb-typo" does not exist in the account; it is listed at incidents/db-maintenance.yaml:5 (incident inc-db-maintenance). Fix the id in evidence.heartbeats, or remove it.',
        });
        const strict = ran(await run("up", { settings: { retries: "8", strictEvidence: "true" } }));
        expect(strict.result.ok).toBe(false);
        expect(failureLines(strict)).toContainEqual(
          '✗ evidence heartbeat "hb-typo" does not exist in the account; it is listed at incidents/db-maintenance.yaml:5 (incident inc-db-maintenance). Fix the id in evidence.heartbeats, or remove it.',
        );
      } finally {
        edit("db-maintenance.yaml", (text) =>
          text.replace("heartbeats: [hb-typo]", "heartbeats: [hb-nightly-backup]"),
        );
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
