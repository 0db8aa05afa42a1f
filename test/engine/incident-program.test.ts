import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDefinitions } from "../../src/definitions";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import {
  type EngineLocation,
  EngineOperationError,
  type EngineStack,
  openEngineStack,
  resolveEngine,
} from "../../src/engine";
import { changedIncidents, formatSummary } from "../../src/program";
import { filesContaining, filesUnder } from "./files";

const repoRoot = join(__dirname, "..", "..");
const engineTimeout = 300_000;

interface IncidentRow {
  id: string;
  name: string;
  severity: string;
  status: string;
  services: string[];
  updatedMs: number | null;
}

/**
 * One stack, driven step by step the way a team uses it: every step builds on the state the
 * previous one left, as engine operations are slow.
 */
describe("the incident program on the real engine against the emulator", () => {
  let engine: EngineLocation;
  let emulator: RunningEmulator;
  let workDir: string;
  let definitionsDir: string;
  let stack: EngineStack;
  let db: DatabaseSync;
  let output: string[] = [];

  const incidentsInEmulator = (): Map<string, IncidentRow> => {
    const rows = db
      .prepare(
        "SELECT id, name, severity, last_update_status AS status, updated_ms AS updatedMs FROM incidents WHERE account_id = ?",
      )
      .all(emulator.demo.accountId) as unknown as Omit<IncidentRow, "services">[];
    const services = db.prepare(
      "SELECT service_id AS id FROM incident_services WHERE account_id = ? AND incident_id = ? ORDER BY position",
    );
    return new Map(
      rows.map((row) => [
        row.id,
        {
          ...row,
          services: (services.all(emulator.demo.accountId, row.id) as { id: string }[]).map(
            (service) => service.id,
          ),
        },
      ]),
    );
  };

  const expectEmulatorMatchesDefinitions = async () => {
    const { definitions, problems } = await loadDefinitions(definitionsDir);
    expect(problems).toEqual([]);
    const live = incidentsInEmulator();
    for (const { definition } of definitions) {
      expect(live.get(definition.id)).toMatchObject({
        name: definition.name,
        severity: definition.severity,
        status: definition.status,
        services: definition.services.map((service) => service.id),
      });
    }
    return definitions;
  };

  const editDefinitions = (file: string, edit: (text: string) => string) => {
    const path = join(definitionsDir, file);
    writeFileSync(path, edit(readFileSync(path, "utf8")));
  };

  beforeAll(async () => {
    engine = await resolveEngine();
    workDir = mkdtempSync(join(tmpdir(), "incident-sync-program-"));
    definitionsDir = join(workDir, "incidents");
    cpSync(join(repoRoot, "incidents"), definitionsDir, { recursive: true });
    const dataFile = join(workDir, "emulator.db");
    emulator = await startEmulator({ port: 0, seed: "demo", dataFile });
    db = new DatabaseSync(dataFile, { readOnly: true });
    stack = await openEngineStack({
      stackName: "program-test",
      stateDir: join(workDir, "engine"),
      passphrase: "program-test-passphrase",
      program: join(repoRoot, "dist", "index.js"),
      repoRoot,
      engine,
      onOutput: (text) => output.push(text),
      config: {
        "incident-sync:baseUrl": { value: emulator.url },
        "incident-sync:accountId": { value: emulator.demo.accountId },
        "incident-sync:apiKey": { value: emulator.demo.apiKey, secret: true },
        "incident-sync:definitionsDir": { value: definitionsDir },
        "incident-sync:retries": { value: "8" },
      },
    });
  }, 1_800_000);

  afterAll(async () => {
    db?.close();
    await emulator?.close();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it(
    "applies every demo definition with up, and the emulator's data shows it",
    async () => {
      const started = Date.now();
      const up = await stack.up();
      expect(up.result).toBe("succeeded");
      expect(up.changes).toEqual({ create: 5 });
      const definitions = await expectEmulatorMatchesDefinitions();
      for (const { definition } of definitions) {
        // The PUT happened in this run: the emulator stamped the incident.
        expect(incidentsInEmulator().get(definition.id)?.updatedMs).toBeGreaterThanOrEqual(
          started - 1000,
        );
      }
      const incidents = up.outputs.incidents?.value as Record<string, { status: string }>;
      expect(Object.keys(incidents).sort()).toEqual([
        "inc-api-errors",
        "inc-checkout-latency",
        "inc-db-maintenance",
        "inc-login-failures",
      ]);
      expect(up.outputs.incidents?.secret).toBe(false);
      expect(up.outputs.drift?.value).toEqual([]);
      const updates = up.outputs.incidentUpdates?.value as Record<string, unknown[]>;
      expect(updates["inc-api-errors"]?.length).toBeGreaterThan(0);
      const heartbeats = up.outputs.heartbeats?.value as Record<string, { stats: unknown }>;
      expect(Object.keys(heartbeats).sort()).toEqual(["hb-billing-sync", "hb-nightly-backup"]);
      const errorGroups = up.outputs.errorGroups?.value as Record<string, { count: number }>;
      expect(Object.keys(errorGroups).sort()).toEqual(["chk-api", "chk-checkout", "chk-web"]);
      expect(errorGroups["chk-api"]?.count).toBeGreaterThan(0);
      expect(changedIncidents(up.stdout).sort()).toEqual([
        "+ db-maintenance created",
        "+ inc-api-errors created",
        "+ inc-checkout-latency created",
        "+ inc-login-failures created",
      ]);
      const summary = formatSummary(up.outputs).split("\n");
      expect(
        summary.filter((line) => /^( {2}inc-| {2}hb-| {2}chk-|\w)/.test(line)),
      ).toMatchInlineSnapshot(`
        [
          "Incidents (4):",
          "  inc-api-errors  MONITORING  MAJOR  Elevated error rate on the public API",
          "  inc-checkout-latency  INVESTIGATING  MEDIUM  Slow checkout for some customers in EU",
          "  inc-db-maintenance  RESOLVED  MINOR  Scheduled database maintenance",
          "  inc-login-failures  RESOLVED  CRITICAL  Some users cannot log in with SSO",
          "Heartbeats (success ratio, last 24 h / last 7 days):",
          "  hb-billing-sync  84.62% / 85.71%  (3 events in 24 h)",
          "  hb-nightly-backup  0% / 80%  (1 event in 24 h)",
          "Error groups (most recent first):",
          "  chk-api  3 groups, 0 archived",
          "  chk-checkout  2 groups, 0 archived",
          "  chk-web  1 group, 0 archived",
          "Drift: none, the status page matches the definitions.",
        ]
      `);
    },
    engineTimeout,
  );

  it(
    "reports no changes on a second, refreshing preview",
    async () => {
      const preview = await stack.preview({ expectNoChanges: true, refresh: true });
      expect(preview.changed).toBe(false);
      expect(preview.changes).toEqual({ same: 5 });
    },
    engineTimeout,
  );

  it("keeps the API key out of every file of the backend, the serialized provider included", () => {
    const stateDir = join(workDir, "engine");
    const leaks = filesContaining(stateDir, emulator.demo.apiKey);
    expect(leaks).toEqual([]);
    const stateFile = filesUnder(join(stateDir, "backend")).find((file) =>
      /stacks\/.*program-test\.json$/.test(file),
    );
    expect(stateFile).toBeDefined();
    const state = JSON.parse(readFileSync(stateFile ?? "", "utf8")) as {
      checkpoint: { latest: { resources: { type: string; outputs?: { __provider?: string } }[] } };
    };
    const providers = state.checkpoint.latest.resources
      .filter((resource) => resource.type === "pulumi-nodejs:dynamic/incident-sync:Incident")
      .map((resource) => resource.outputs?.__provider ?? "");
    expect(providers).toHaveLength(4);
    for (const provider of providers) {
      expect(provider.length).toBeGreaterThan(0);
      expect(provider).not.toContain(emulator.demo.apiKey);
      // It captures the path of the compiled operations, not a client, a schema or a key.
      expect(provider).toContain(join(repoRoot, "dist", "providers", "incident-operations"));
      expect(provider.length).toBeLessThan(4000);
    }
    expect(output.join("")).not.toContain(emulator.demo.apiKey);
  });

  it(
    "sees an update posted outside git: drift lists it, refresh picks it up, a strict preview fails naming the incident, and up restores it",
    async () => {
      emulator.emulator.control.appendIncidentUpdate(
        emulator.demo.accountId,
        "inc-checkout-latency",
        { description: "Mitigated by hand from the UI", status: "MONITORING" },
      );
      const seen = await stack.up();
      expect(seen.changes).toEqual({ same: 5 });
      expect(seen.outputs.drift?.value).toMatchObject([
        {
          incidentId: "inc-checkout-latency",
          declaredStatus: "INVESTIGATING",
          liveStatus: "MONITORING",
          updatesOutsideGit: [
            { status: "MONITORING", description: "Mitigated by hand from the UI" },
          ],
        },
      ]);

      const refresh = await stack.refresh();
      expect(refresh.changes).toEqual({ same: 4, update: 1 });

      output = [];
      const failure = await stack.preview({ expectNoChanges: true }).catch((error) => error);
      expect(failure).toBeInstanceOf(EngineOperationError);
      expect(output.join("")).toMatch(
        /~ .*pulumi-nodejs:dynamic\/incident-sync:Incident.*inc-checkout-latency/,
      );

      const up = await stack.up();
      expect(up.changes).toEqual({ same: 4, update: 1 });
      expect(incidentsInEmulator().get("inc-checkout-latency")?.status).toBe("INVESTIGATING");
      expect(up.outputs.drift?.value).toEqual([]);
    },
    engineTimeout,
  );

  it(
    "previews a YAML edit as exactly the changed fields",
    async () => {
      editDefinitions("storefront.yaml", (text) =>
        text
          .replace(
            "name: Slow checkout for some customers in EU",
            "name: Slow checkout for all customers in EU",
          )
          .replace("severity: MEDIUM", "severity: MAJOR"),
      );
      output = [];
      const preview = await stack.preview();
      expect(preview.changes).toEqual({ same: 4, update: 1 });
      const lines = output
        .join("")
        .split("\n")
        .filter((line) => line.includes("pulumi-nodejs:dynamic/incident-sync:Incident"));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain("inc-checkout-latency");
      expect(lines[0]).toContain("[diff: ~name,severity]");
      const up = await stack.up();
      expect(up.changes).toEqual({ same: 4, update: 1 });
      await expectEmulatorMatchesDefinitions();
    },
    engineTimeout,
  );

  it(
    "releases a removed definition by default, and resolves one whose onRemove says so",
    async () => {
      editDefinitions("storefront.yaml", (text) =>
        text.replace(
          "severity: MAJOR\nstatus: INVESTIGATING\n",
          "severity: MAJOR\nstatus: INVESTIGATING\nonRemove: resolve\n",
        ),
      );
      const marked = await stack.up();
      expect(marked.changes).toEqual({ same: 4, update: 1 });

      const before = incidentsInEmulator();
      // The checkout incident goes (resolve); api-errors.yaml goes (release by default).
      editDefinitions("storefront.yaml", (text) => text.slice(text.indexOf("---\n") + 4));
      rmSync(join(definitionsDir, "api-errors.yaml"));
      const up = await stack.up();
      expect(up.changes).toEqual({ same: 3, delete: 2 });
      const after = incidentsInEmulator();
      expect(after.get("inc-checkout-latency")?.status).toBe("RESOLVED");
      expect(after.get("inc-api-errors")).toEqual(before.get("inc-api-errors"));
      expect(Object.keys(up.outputs.incidents?.value as object).sort()).toEqual([
        "inc-db-maintenance",
        "inc-login-failures",
      ]);
    },
    engineTimeout,
  );

  it(
    "fails the preview of an invalid definition with the loader's message, file and line",
    async () => {
      const bad = join(definitionsDir, "bad.yaml");
      writeFileSync(
        bad,
        "id: inc-bad\nname: Broken\nseverity: HUGE\nstatus: INVESTIGATING\nservices: [svc-api]\n",
      );
      try {
        const failure = await stack.preview().catch((error) => error);
        expect(failure).toBeInstanceOf(EngineOperationError);
        const message = (failure as Error).message;
        const problem = message.split("\n").find((line) => line.includes("bad.yaml"));
        expect(problem?.replace(definitionsDir, "<dir>").trim()).toMatchInlineSnapshot(
          `"<dir>/bad.yaml:3:11: severity "HUGE" is not allowed; use one of CRITICAL, MAJOR, MEDIUM, MINOR"`,
        );
      } finally {
        rmSync(bad);
      }
    },
    engineTimeout,
  );

  it(
    "fails with a clear message when a definition names an incident the account does not have",
    async () => {
      const unknown = join(definitionsDir, "unknown.yaml");
      writeFileSync(
        unknown,
        "id: inc-does-not-exist\nname: Nobody made me\nseverity: MINOR\nstatus: INVESTIGATING\nservices: [svc-api]\n",
      );
      output = [];
      try {
        const failure = await stack.up().catch((error) => error);
        expect(failure).toBeInstanceOf(EngineOperationError);
        const line = output
          .join("")
          .split("\n")
          .find((text) => text.includes("does not exist"));
        expect(line?.slice(line.indexOf("error: "))).toMatchInlineSnapshot(
          `"error: Incident "inc-does-not-exist" does not exist in account "acct-demo". The API cannot create incidents: create it on the status page first, or fix the id in its definition."`,
        );
      } finally {
        rmSync(unknown);
      }
      const back = await stack.preview({ expectNoChanges: true });
      expect(back.changed).toBe(false);
    },
    engineTimeout,
  );

  it(
    "converges through 20% injected 503s and some 429s, every incident matching its definition",
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
        const refresh = await stack.refresh();
        expect(refresh.changes).toEqual({ same: 1, update: 2 });
        const up = await stack.up();
        expect(up.result).toBe("succeeded");
        expect(up.changes).toEqual({ same: 1, update: 2 });
      } finally {
        emulator.emulator.control.setFaults({});
      }
      await expectEmulatorMatchesDefinitions();
      expect(incidentsInEmulator().get("inc-login-failures")?.status).toBe("RESOLVED");
    },
    engineTimeout,
  );

  it("still keeps the API key out of the backend after every step", () => {
    const leaks = filesContaining(join(workDir, "engine"), emulator.demo.apiKey);
    expect(leaks).toEqual([]);
  });
});
