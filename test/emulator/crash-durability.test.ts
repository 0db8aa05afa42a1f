import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { DatabaseSync } from "node:sqlite";
import { afterEach, describe, expect, it } from "vitest";

const CLI = resolve(__dirname, "../../dist/src/cli/main.js");
const INCIDENTS = 400;

let child: ChildProcess | undefined;
afterEach(() => {
  if (child?.exitCode === null) child.kill("SIGKILL");
});

/** Starts the built CLI on Node 24 and resolves with its JSON start-up line. */
async function startCli(args: string[]) {
  if (!existsSync(CLI))
    throw new Error(`${CLI} is missing: run npm run build first (npm test does)`);
  child = spawn(process.execPath, [CLI, "emulator", "--port", "0", "--format", "json", ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((done, fail) => {
    lines.once("line", done);
    child!.once("exit", (code) => fail(new Error(`emulator exited with ${code} before listening`)));
  });
  return JSON.parse(first) as { url: string; apiKey: string };
}

describe("durability", () => {
  it("keeps every acknowledged PUT after kill -9 during a stream of PUTs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "emulator-crash-"));
    const dataFile = join(dir, "data.db");
    const seedFile = join(dir, "seed.json");
    writeFileSync(
      seedFile,
      JSON.stringify({
        accounts: [
          {
            id: "acct-crash",
            apiKeys: ["crash-key"],
            services: [{ id: "svc", name: "Service" }],
            incidents: Array.from({ length: INCIDENTS }, (_, i) => ({
              id: `inc-${i}`,
              name: "before",
              severity: "MINOR",
              services: ["svc"],
            })),
          },
        ],
      }),
    );
    // The update a status change posts is written in the PUT's transaction: it must survive too.
    const putStatus = ["--put-status", "posts-update"];
    const { url } = await startCli(["--data", dataFile, "--seed", seedFile, ...putStatus]);
    const acknowledged: number[] = [];
    let next = 0;
    let killed = false;
    const worker = async () => {
      while (next < INCIDENTS) {
        const i = next++;
        if (acknowledged.length >= 150 && !killed) {
          killed = true;
          child!.kill("SIGKILL");
        }
        try {
          const response = await fetch(`${url}/v1/status-pages/incidents/inc-${i}`, {
            method: "PUT",
            headers: { authorization: "Bearer crash-key", "content-type": "application/json" },
            body: JSON.stringify({
              name: `written-${i}`,
              severity: "MAJOR",
              services: [{ id: "svc", name: "Service", accountId: "acct-crash" }],
              lastUpdateStatus: "RESOLVED",
            }),
          });
          if (response.status === 200) {
            await response.json();
            acknowledged.push(i);
          }
        } catch {
          // Requests in flight when the process dies fail; they were never acknowledged.
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    await new Promise((done) =>
      child!.exitCode !== null || child!.signalCode !== null
        ? done(null)
        : child!.once("exit", done),
    );
    expect(child!.signalCode).toBe("SIGKILL");
    expect(acknowledged.length).toBeGreaterThanOrEqual(150);

    const db = new DatabaseSync(dataFile);
    const names = new Map(
      db
        .prepare("SELECT id, name FROM incidents")
        .all()
        .map((row) => [String(row.id), String(row.name)]),
    );
    const statusUpdates = new Set(
      db
        .prepare(
          "SELECT incident_id FROM incident_updates WHERE description = 'Status changed to RESOLVED'",
        )
        .all()
        .map((row) => String(row.incident_id)),
    );
    db.close();
    const missing = acknowledged.filter(
      (i) => names.get(`inc-${i}`) !== `written-${i}` || !statusUpdates.has(`inc-${i}`),
    );
    expect(missing).toEqual([]);

    // The restarted server serves the same data and does not re-apply the seed.
    const restarted = await startCli(["--data", dataFile, "--seed", seedFile, ...putStatus]);
    const last = acknowledged.at(-1)!;
    const response = await fetch(
      `${restarted.url}/v1/status-pages/incidents/inc-${last}/incident-updates`,
      {
        headers: { authorization: "Bearer crash-key" },
      },
    );
    expect(await response.json()).toMatchObject([{ description: "Status changed to RESOLVED" }]);
    child!.kill("SIGTERM");
  });

  it("prints one JSON line with the demo key and stops with exit 0 on SIGTERM", async () => {
    const started = await startCli([]);
    expect(started).toMatchObject({ apiKey: "demo-key", accountId: "acct-demo", dataFile: null });
    const exited = new Promise((done) =>
      child!.once("exit", (code, signal) => done({ code, signal })),
    );
    child!.kill("SIGTERM");
    expect(await exited).toEqual({ code: 0, signal: null });
  });
});
