import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IncidentResponse, type IncidentUpdate } from "../../src/api/schemas";
import { loadDefinitions } from "../../src/definitions";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { sendJson, startTestServer } from "../support/http-server";
import { LIVE_ACCOUNT, LIVE_INCIDENTS, LIVE_KEY, liveSeed } from "../support/status-page-seed";
import { runCli } from "./run-cli";

const GIT_ENV = {
  GIT_AUTHOR_NAME: "Import Test",
  GIT_AUTHOR_EMAIL: "import@example.test",
  GIT_COMMITTER_NAME: "Import Test",
  GIT_COMMITTER_EMAIL: "import@example.test",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
};

let live: RunningEmulator;
let root: string;
const env = () => ({
  MONITORING_API_URL: live.url,
  MONITORING_API_KEY: LIVE_KEY,
  MONITORING_ACCOUNT_ID: LIVE_ACCOUNT,
  MONITORING_RATE_LIMIT: "60000",
});

/** A new empty folder for one test's project. */
function project(name: string): string {
  const dir = path.join(root, name);
  mkdirSync(dir);
  return dir;
}

/** Every file of a folder with a digest of its text, to see that nothing changed. */
function digests(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((file) => [
        file,
        createHash("sha256")
          .update(readFileSync(path.join(dir, file)))
          .digest("hex"),
      ]),
  );
}

/** The incident as the service shows it, read over HTTP. */
async function incidentOnService(id: string): Promise<IncidentResponse> {
  const response = await fetch(`${live.url}/v1/status-pages/incidents/${id}`, {
    headers: { authorization: `Bearer ${LIVE_KEY}` },
  });
  return IncidentResponse.parse(await response.json());
}

beforeAll(async () => {
  live = await startEmulator({ port: 0, seed: liveSeed() });
  root = mkdtempSync(path.join(tmpdir(), "incident-sync-import-"));
});
afterAll(async () => {
  await live?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("incident-sync import", () => {
  it("writes services.yaml and the 12 incidents with --all, validate passes, and a second import changes nothing", async () => {
    const dir = project("all");
    live.emulator.control.resetStats();
    const run = await runCli(["import", "--all"], dir, env());
    expect(run.exitCode, run.stderr).toBe(0);
    const files = readdirSync(path.join(dir, "incidents"));
    expect(files).toHaveLength(13);
    expect(files).toContain("services.yaml");
    // Two incidents of one name: the later one's file takes a piece of its id.
    expect(files).toContain("elevated-error-rate-on-the-public-api.yaml");
    expect(files).toContain("elevated-error-rate-on-the-public-api-7d1e2c3b.yaml");
    expect(files).toContain("zahlungen-storung-in-der-eu.yaml");
    expect(files).toContain("決済の遅延.yaml");
    expect(run.stderr).toBe(
      "Read 6 services (1 page).\nRead 1 status page (1 page).\nRead 12 incidents (1 page).\n",
    );

    const validate = await runCli(["validate", "--live"], dir, env());
    expect(validate.stdout).toBe(
      "incidents: 12 definitions in 12 files and the services catalog, all valid, every service they list among the account's 6 services.\n",
    );
    expect(validate.exitCode).toBe(0);

    // Only reads, each a page of at most 100, with the account header.
    const { byOperation } = live.emulator.control.stats();
    expect(Object.keys(byOperation).sort()).toEqual([
      "listIncidents",
      "listServices",
      "listStatusPages",
    ]);

    const before = digests(path.join(dir, "incidents"));
    const again = await runCli(["import", "--all"], dir, env());
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toBe(
      "Read 6 services, 1 status page and 12 incidents.\nNothing to write in incidents: every incident is defined already, its services catalog is kept.\nAlready defined, not written again: 12 incidents.\n",
    );
    expect(digests(path.join(dir, "incidents"))).toEqual(before);

    // Committed, plan finds nothing to change against that commit.
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "commit.gpgsign=false", ...args], {
        cwd: dir,
        env: { ...process.env, ...GIT_ENV },
      });
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "Our status page, imported");
    const plan = await runCli(["plan", "--base", "main"], dir, env());
    expect(plan.exitCode, plan.stdout + plan.stderr).toBe(0);
  });

  it("mirrors every update customers read: its status, its message exactly, and its public date, oldest first", async () => {
    const dir = project("mirror");
    expect((await runCli(["import", "--all"], dir, env())).exitCode).toBe(0);
    const loaded = await loadDefinitions(path.join(dir, "incidents"));
    expect(loaded.problems).toEqual([]);
    expect(loaded.definitions).toHaveLength(LIVE_INCIDENTS.length);
    for (const { definition } of loaded.definitions) {
      const incident = await incidentOnService(definition.id ?? "");
      const oldest = [...incident.incidentUpdates].reverse();
      expect(definition.name).toBe(incident.name);
      expect(definition.severity).toBe(incident.severity);
      expect(definition.services.map((service) => service.id)).toEqual(
        incident.services.map((service) => service.id),
      );
      expect(definition.updates?.map((entry) => entry.message)).toEqual(
        oldest.map((update) => update.description),
      );
      expect(definition.updates?.map((entry) => entry.at)).toEqual(
        oldest.map((update) => update.publicIncidentUpdateDate),
      );
      // A status the service gave is kept; an update without one keeps the status before it.
      definition.updates?.forEach((entry, index) => {
        const update = oldest[index] as IncidentUpdate;
        expect(entry.status).toBe(update.status ?? definition.updates?.[index - 1]?.status);
      });
      expect(definition.status).toBe(incident.lastUpdateStatus);
    }
    // A message of several lines reads as the status page shows it: a literal block.
    const texts = readdirSync(path.join(dir, "incidents")).map((file) =>
      readFileSync(path.join(dir, "incidents", file), "utf8"),
    );
    const block = "    message: |-\n      決済の遅延が発生しています。\n      現在調査中です。\n";
    expect(texts.filter((text) => text.includes(block)).length).toBeGreaterThan(0);
  });

  it("imports the open incidents by default, and says how many resolved ones it left out", async () => {
    const dir = project("open");
    const run = await runCli(["import", "--format", "json"], dir, env());
    expect(run.exitCode).toBe(0);
    const result = JSON.parse(run.stdout) as {
      written: { path: string; incidentId?: string; status?: string }[];
      resolvedLeftOut: number;
    };
    expect(result.resolvedLeftOut).toBe(4);
    expect(result.written).toHaveLength(9);
    expect(result.written.filter((file) => file.status === "RESOLVED")).toEqual([]);
    // The rest come with --all, next to them, and nothing already written is touched.
    const before = digests(path.join(dir, "incidents"));
    const all = await runCli(["import", "--all", "--format", "json"], dir, env());
    const rest = JSON.parse(all.stdout) as typeof result;
    expect(rest.written.map((file) => file.status)).toEqual([
      "RESOLVED",
      "RESOLVED",
      "RESOLVED",
      "RESOLVED",
    ]);
    const after = digests(path.join(dir, "incidents"));
    for (const [file, digest] of Object.entries(before)) expect(after[file]).toBe(digest);
  });

  it("keeps a services catalog the directory has, and names inline the services it lacks", async () => {
    const dir = project("catalog");
    mkdirSync(path.join(dir, "incidents"));
    writeFileSync(
      path.join(dir, "incidents", "services.yaml"),
      "0c6f0d7e-7b55-4b8a-9d0c-5a1f0f5b6a01: Public API\n",
    );
    const run = await runCli(["import"], dir, env());
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toContain("Kept the services catalog of incidents as it is.");
    expect(readFileSync(path.join(dir, "incidents", "services.yaml"), "utf8")).toBe(
      "0c6f0d7e-7b55-4b8a-9d0c-5a1f0f5b6a01: Public API\n",
    );
    const text = readFileSync(
      path.join(dir, "incidents", "elevated-error-rate-on-the-public-api.yaml"),
      "utf8",
    );
    expect(text).toContain(
      "services:\n  - 0c6f0d7e-7b55-4b8a-9d0c-5a1f0f5b6a01 # Public API\n  - id: 0c6f0d7e-7b55-4b8a-9d0c-5a1f0f5b6a03\n    name: Web app\n",
    );
    expect((await runCli(["validate"], dir, env())).exitCode).toBe(0);
  });

  it("names an incident no valid definition can hold, with why, writes the others, and exits 1 unless --allow-partial", async () => {
    const hostile = await startEmulator({
      port: 0,
      seed: {
        accounts: [
          {
            id: "acct-h",
            apiKeys: ["h-key"],
            services: [{ id: "svc-a", name: "A" }],
            incidents: [
              {
                id: "inc-bidi",
                name: "Family plan outage",
                severity: "MAJOR",
                services: ["svc-a"],
                updates: [{ description: "Fixed for \u202Eall plans", status: "RESOLVED" }],
              },
              {
                id: "inc-zwj",
                name: "Family 👨‍👩‍👧 plans",
                severity: "MINOR",
                services: ["svc-a"],
                updates: [{ description: "Fixed for 👨‍👩‍👧 plans", status: "RESOLVED" }],
              },
            ],
          },
        ],
      },
    });
    try {
      const dir = project("hostile");
      const hostileEnv = { MONITORING_API_URL: hostile.url, MONITORING_API_KEY: "h-key" };
      const run = await runCli(["import", "--all"], dir, hostileEnv);
      expect(run.exitCode).toBe(1);
      expect(run.stdout).toContain(
        '  inc-bidi "Family plan outage": a definition refuses it: updates[0].message must not contain U+202E RIGHT-TO-LEFT OVERRIDE (character 11), which cannot be seen or changes how the text around it is shown\n',
      );
      expect(run.stderr).toMatchInlineSnapshot(`
        "Read 1 service (1 page).
        Read 0 status pages (1 page).
        Read 2 incidents (1 page).
        incident-sync import: 1 incident not imported, as no valid definition can hold it (the report says why); the files written pass validate. Fix it on the status page and import again, or pass --allow-partial to accept the others alone.
        "
      `);
      expect(readdirSync(path.join(dir, "incidents")).sort()).toEqual([
        "family-plans.yaml",
        "services.yaml",
      ]);
      expect((await runCli(["validate"], dir)).exitCode).toBe(0);

      const partial = project("hostile-partial");
      const allowed = await runCli(["import", "--all", "--allow-partial"], partial, hostileEnv);
      expect(allowed.exitCode, allowed.stderr).toBe(0);
      expect(allowed.stdout).toContain("inc-bidi");
    } finally {
      await hostile.close();
    }
  });

  it("writes a folder validate passes from an odd list: an incident repeated, CRLF, U+2028, U+FEFF, a bad date, a message too long", async () => {
    const entry = (id: string, description: string, more: Record<string, unknown> = {}) => ({
      id,
      name: `Incident ${id}`,
      severity: "MINOR",
      services: [{ id: "svc-a", name: "A" }],
      lastUpdateStatus: "MONITORING",
      created_at: "2026-11-01T10:00:00.000Z",
      incidentUpdates: [
        {
          id: `${id}-u1`,
          description,
          status: "MONITORING",
          created_at: "2026-11-01T10:05:00.000Z",
          publicIncidentUpdateDate: "2026-11-01T10:04:00.000Z",
          ...more,
        },
      ],
    });
    const first = [
      entry("inc-1", "Line one\r\nline two"),
      entry("inc-2", "Paragraph\u2028next, \uFEFFpasted"),
      entry("inc-3", "Shown when?", { publicIncidentUpdateDate: "last Tuesday" }),
    ];
    const second = [
      entry("inc-1", "Line one\r\nline two"),
      entry("inc-1", "Line one\r\nline two"),
      entry("inc-4", `Long: ${"x".repeat(600 * 1024)}`),
    ];
    const server = await startTestServer((request, response) => {
      const page = (entries: unknown[], nextId: string | null = null) => ({
        length: entries.length,
        entries,
        nextId,
      });
      switch (request.url.pathname) {
        case "/v1/status-pages/services":
          return sendJson(response, 200, page([{ id: "svc-a", name: "A" }]));
        case "/v1/status-pages":
          return sendJson(response, 200, page([]));
        case "/v1/status-pages/incidents":
          return request.url.searchParams.get("nextId") === "p2"
            ? sendJson(response, 200, page(second))
            : sendJson(response, 200, page(first, "p2"));
        default:
          return sendJson(response, 404, { statusCode: 404, error: "Not Found" });
      }
    });
    try {
      const dir = project("odd-list");
      const run = await runCli(["import", "--format", "json"], dir, {
        MONITORING_API_URL: server.url,
        MONITORING_API_KEY: "any-key",
      });
      expect(run.exitCode, run.stderr).toBe(1);
      const result = JSON.parse(run.stdout) as {
        written: { path: string; incidentId?: string }[];
        notImported: { incidentId: string; reason: string }[];
      };
      expect(result.written.map((file) => file.incidentId ?? file.path)).toEqual([
        "incidents/services.yaml",
        "inc-1",
        "inc-2",
        "inc-3",
      ]);
      expect(result.notImported).toEqual([
        {
          incidentId: "inc-4",
          name: "Incident inc-4",
          reason:
            "its definition would be a file of 601 KiB, and validate reads none over 512 KiB: a message that long does not fit a definitions file",
        },
      ]);
      const validate = await runCli(["validate"], dir);
      expect(validate.exitCode, validate.stdout).toBe(0);
      const loaded = await loadDefinitions(path.join(dir, "incidents"));
      expect(
        loaded.definitions.map(({ definition }) => [
          definition.id,
          definition.updates?.map(({ message, at }) => ({ message, at })),
        ]),
      ).toEqual([
        ["inc-1", [{ message: "Line one\nline two", at: "2026-11-01T10:04:00.000Z" }]],
        [
          "inc-2",
          [{ message: "Paragraph\u2028next, \uFEFFpasted", at: "2026-11-01T10:04:00.000Z" }],
        ],
        // No public date that is a date: the creation's.
        ["inc-3", [{ message: "Shown when?", at: "2026-11-01T10:05:00.000Z" }]],
      ]);
    } finally {
      await server.close();
    }
  });

  it("writes nothing when the definitions directory is a link, and nothing outside the project", async () => {
    const dir = project("link");
    const elsewhere = project("elsewhere");
    symlinkSync(elsewhere, path.join(dir, "incidents"));
    writeFileSync(path.join(dir, "Pulumi.yaml"), "name: link\nruntime: nodejs\n");
    const run = await runCli(["import"], dir, env());
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain("incidents is a symbolic link");
    expect(readdirSync(elsewhere)).toEqual([]);
    const outside = await runCli(["import", "../elsewhere"], dir, env());
    expect(outside.exitCode).toBe(1);
    expect(outside.stderr).toContain("../elsewhere is outside the project");
  });

  it("explains itself, its files and its exit codes in --help", async () => {
    const run = await runCli(["import", "--help"], root);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain("Exit codes:");
    expect(run.stdout).toContain("services.yaml");
    expect(run.stdout).toContain("--all");
    expect(run.stdout).toContain("--allow-partial");
  });
});

describe("incident-sync import against the service's other answers", () => {
  it("writes definitions that validate from lean answers, and sends the account header when it is required", async () => {
    live.emulator.control.setBehaviour({ answers: "lean", accountHeader: "required" });
    try {
      const dir = project("lean");
      const run = await runCli(["import", "--all"], dir, env());
      expect(run.exitCode, run.stdout + run.stderr).toBe(0);
      expect(readdirSync(path.join(dir, "incidents"))).toHaveLength(13);
      const validate = await runCli(["validate"], dir, env());
      expect(validate.exitCode, validate.stdout).toBe(0);
    } finally {
      live.emulator.control.setBehaviour({ answers: "full", accountHeader: "optional" });
    }
  });

  it("reads the incidents a page at a time when there are more than a page holds", async () => {
    const many = await startEmulator({
      port: 0,
      seed: {
        accounts: [
          {
            id: "acct-many",
            apiKeys: ["many-key"],
            services: [{ id: "svc-a", name: "A" }],
            incidents: Array.from({ length: 230 }, (_, index) => ({
              id: `inc-${index}`,
              name: `Incident ${index % 7}`,
              severity: "MINOR" as const,
              services: ["svc-a"],
              updates: [{ description: `Update of ${index}`, status: "INVESTIGATING" as const }],
            })),
          },
        ],
      },
    });
    try {
      const dir = project("many");
      const run = await runCli(["import", "--format", "json"], dir, {
        MONITORING_API_URL: many.url,
        MONITORING_API_KEY: "many-key",
        MONITORING_RATE_LIMIT: "60000",
      });
      expect(run.exitCode).toBe(0);
      expect(run.stderr).toContain("Read 230 incidents (3 pages).");
      expect(readdirSync(path.join(dir, "incidents"))).toHaveLength(231);
      expect((await runCli(["validate"], dir)).exitCode).toBe(0);
    } finally {
      await many.close();
    }
  });

  it("carries an incident's duration into its definition, writes none where the service gives none, and the definitions validate", async () => {
    const timed = await startEmulator({
      port: 0,
      seed: {
        accounts: [
          {
            id: "acct-timed",
            apiKeys: ["timed-key"],
            services: [{ id: "svc-a", name: "A" }],
            incidents: [5400, null].map((duration, index) => ({
              id: `inc-timed-${index}`,
              name: `Timed ${index}`,
              severity: "MINOR" as const,
              services: ["svc-a"],
              duration,
              updates: [{ description: "Looking into it.", status: "INVESTIGATING" as const }],
            })),
          },
        ],
      },
    });
    try {
      const dir = project("timed");
      const run = await runCli(["import"], dir, {
        MONITORING_API_URL: timed.url,
        MONITORING_API_KEY: "timed-key",
        MONITORING_RATE_LIMIT: "60000",
      });
      expect(run.exitCode, run.stderr).toBe(0);
      const loaded = await loadDefinitions(path.join(dir, "incidents"));
      expect(loaded.problems).toEqual([]);
      expect(
        Object.fromEntries(
          loaded.definitions.map(({ definition }) => [definition.id, definition.duration]),
        ),
      ).toEqual({ "inc-timed-0": 5400, "inc-timed-1": undefined });
      const texts = readdirSync(path.join(dir, "incidents")).map((file) =>
        readFileSync(path.join(dir, "incidents", file), "utf8"),
      );
      expect(texts.filter((text) => text.includes("\nduration: 5400\n"))).toHaveLength(1);
      expect(texts.filter((text) => text.includes("duration"))).toHaveLength(1);
      expect((await runCli(["validate"], dir)).exitCode).toBe(0);
    } finally {
      await timed.close();
    }
  });

  it("reads on its own each incident the list shows without its updates, and names one it cannot read", async () => {
    const listed = (id: string) => ({
      id,
      name: `Listed ${id}`,
      severity: "MINOR",
      services: [{ id: "svc-a", name: "A" }],
      lastUpdateStatus: "MONITORING",
      created_at: "2026-11-01T10:00:00.000Z",
    });
    const server = await startTestServer((request, response) => {
      const page = (entries: unknown[]) => ({ length: entries.length, entries, nextId: null });
      switch (request.url.pathname) {
        case "/v1/status-pages/services":
          return sendJson(response, 200, page([{ id: "svc-a", name: "A" }]));
        case "/v1/status-pages":
          return sendJson(response, 200, page([]));
        case "/v1/status-pages/incidents":
          return sendJson(response, 200, page([listed("inc-1"), listed("inc 2")]));
        case "/v1/status-pages/incidents/inc-1":
          return sendJson(response, 200, {
            ...listed("inc-1"),
            incidentUpdates: [
              {
                id: "u1",
                description: "Read on its own",
                created_at: "2026-11-01T10:00:00.000Z",
              },
            ],
          });
        default:
          return sendJson(response, 404, { statusCode: 404, error: "Not Found" });
      }
    });
    try {
      const dir = project("lean-list");
      const run = await runCli(["import", "--format", "json", "--allow-partial"], dir, {
        MONITORING_API_URL: server.url,
        MONITORING_API_KEY: "any-key",
      });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stderr).toContain("Read 2 of 2 incidents listed without their updates.\n");
      const result = JSON.parse(run.stdout) as {
        written: { path: string; status?: string; updates?: number }[];
        notImported: { incidentId: string; reason: string }[];
      };
      expect(
        result.written.map(({ path: file, status, updates }) => ({ file, status, updates })),
      ).toEqual([
        { file: "incidents/services.yaml", status: undefined, updates: undefined },
        { file: "incidents/listed-inc-1.yaml", status: "MONITORING", updates: 1 },
      ]);
      expect(result.notImported).toEqual([
        {
          incidentId: "inc 2",
          name: "Listed inc 2",
          reason: "it was listed without its updates, and its id cannot be read on its own",
        },
      ]);
      // Nothing was asked for the id that is no path segment.
      expect(server.requests.map((request) => request.url.pathname)).not.toContain(
        "/v1/status-pages/incidents/inc%202",
      );
    } finally {
      await server.close();
    }
  });
});
