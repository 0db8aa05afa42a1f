import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { resolveEngine } from "../../src/engine";
import { runCli } from "../cli/run-cli";
import { LIVE_ACCOUNT, LIVE_INCIDENTS, LIVE_KEY, liveSeed } from "../support/status-page-seed";
import { copyCheckout, reuseBuild } from "./support/checkout";

const timeout = 300_000;

/** The writes of the public API, by the emulator's operation ids. */
const WRITES = [
  "createIncident",
  "updateIncident",
  "deleteIncident",
  "postIncidentUpdate",
  "updateIncidentUpdate",
  "deleteIncidentUpdate",
];

/** Every incident's updates as the service keeps them: id and message, by incident. */
async function updatesOnService(live: RunningEmulator): Promise<Record<string, string[]>> {
  const read: Record<string, string[]> = {};
  for (const incident of LIVE_INCIDENTS) {
    const response = await fetch(
      `${live.url}/v1/status-pages/incidents/${incident.id}/incident-updates`,
      { headers: { authorization: `Bearer ${LIVE_KEY}`, "x-service-account": LIVE_ACCOUNT } },
    );
    const updates = (await response.json()) as { id: string; description: string }[];
    read[incident.id] = updates.map((update) => `${update.id} ${update.description}`).sort();
  }
  return read;
}

/**
 * A team's status page brought into git with `import`, then run by `up` on the real engine:
 * against the service it was imported from, and against the emulator's sandbox.
 */
describe("incident-sync import, then up", () => {
  let root: string;
  let project: string;
  let live: RunningEmulator;

  beforeAll(async () => {
    await resolveEngine();
    root = mkdtempSync(join(tmpdir(), "incident-sync-import-up-"));
    project = copyCheckout(join(root, "project"));
    reuseBuild(project);
    rmSync(join(project, "incidents"), { recursive: true });
    live = await startEmulator({ port: 0, seed: liveSeed() });
    const imported = await runCli(["import", "--all"], project, {
      MONITORING_API_URL: live.url,
      MONITORING_API_KEY: LIVE_KEY,
      MONITORING_ACCOUNT_ID: LIVE_ACCOUNT,
    });
    expect(imported.exitCode, imported.stderr).toBe(0);
  }, timeout);

  afterAll(async () => {
    await live?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it(
    "adopts every imported incident on the service it came from without a write, then changes nothing",
    async () => {
      const before = await updatesOnService(live);
      live.emulator.control.resetStats();
      const up = () =>
        runCli(
          [
            "up",
            "--stack",
            "live",
            "--state",
            join(root, "state"),
            "--api-url",
            live.url,
            "--account-id",
            LIVE_ACCOUNT,
          ],
          project,
          {
            MONITORING_API_KEY: LIVE_KEY,
            PULUMI_CONFIG_PASSPHRASE: "live-passphrase",
            HOME: process.env.HOME ?? tmpdir(),
          },
        );
      const first = await up();
      expect(first.exitCode, first.stdout + first.stderr).toBe(0);
      expect(first.stdout.split("\n")[0]).toMatch(/^Stack live: changes applied \(12 adopted;/);
      // No write at all: each update is found posted by its message, and the name, severity
      // and services are as declared, so nothing customers read is posted, changed or removed.
      const writes = live.emulator.control.stats().byOperation;
      for (const operation of WRITES) expect(writes[operation], operation).toBeUndefined();
      // Nor a read of each incident: the list shows each one as declared.
      expect(writes.getIncident).toBeUndefined();
      expect(writes.listIncidentUpdates).toBeUndefined();
      expect(await updatesOnService(live)).toEqual(before);
      expect(live.emulator.control.notifications(LIVE_ACCOUNT)).toEqual([]);

      live.emulator.control.resetStats();
      const second = await up();
      expect(second.exitCode, second.stdout + second.stderr).toBe(0);
      expect(second.stdout.split("\n")[0]).toMatch(/^Stack live: no changes \(12 unchanged;/);
      const again = live.emulator.control.stats().byOperation;
      for (const operation of WRITES) expect(again[operation], operation).toBeUndefined();
    },
    timeout,
  );

  it(
    "adopts them in the emulator's sandbox with their dated updates as posted, posting none again",
    async () => {
      const run = await runCli(["up", "--emulator"], project);
      expect(run.exitCode, run.stdout + run.stderr).toBe(0);
      expect(run.stdout.split("\n")[0]).toMatch(/^Stack dev: changes applied \(12 adopted;/);
      expect(run.stderr.match(/dated updates? (was|were) added as posted/g)).toHaveLength(12);
      const db = new DatabaseSync(join(project, ".incident-sync", "emulator.db"), {
        readOnly: true,
      });
      try {
        const count = db.prepare(
          "SELECT COUNT(*) AS n FROM incident_updates WHERE incident_id = ?",
        );
        const notified = db.prepare(
          "SELECT COUNT(*) AS n FROM notifications WHERE incident_id = ?",
        );
        for (const incident of LIVE_INCIDENTS) {
          expect(count.get(incident.id)?.n, incident.id).toBe(incident.updates?.length);
          expect(notified.get(incident.id)?.n, incident.id).toBe(0);
        }
      } finally {
        db.close();
      }
    },
    timeout,
  );
});
