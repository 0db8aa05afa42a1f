import { afterEach, describe, expect, it, vi } from "vitest";
import { BEHAVIOUR_ENV, DEFAULT_BEHAVIOUR, type Emulator } from "../../src/emulator";
import { ADMIN, call, DEMO_ACCOUNT, demoEmulator, NOW, OTHER_KEY, service } from "./helpers";

let emulator: Emulator | undefined;
afterEach(() => {
  emulator?.close();
  emulator = undefined;
  vi.unstubAllEnvs();
});

const ago = (hours: number) => new Date(NOW.getTime() - hours * 3_600_000).toISOString();
const EVENTS = "/v1/checks/heartbeats/hb-billing-sync/events";
const timestamps = (json: unknown) =>
  ((json as { events?: { timestamp: string }[] }[])[0]?.events ?? []).map((e) => e.timestamp);

describe("listOrder: the order of heartbeat events and incident updates", () => {
  it("oldest-first lists the events oldest first, and a limit keeps the oldest of the window", async () => {
    emulator = demoEmulator({ behaviour: { listOrder: "oldest-first" } });
    const all = await call(emulator.app, "GET", EVENTS);
    expect(timestamps(all.json)).toEqual([ago(12), ago(10), ago(8)]);
    const two = await call(emulator.app, "GET", `${EVENTS}?limit=2`);
    expect(timestamps(two.json)).toEqual([ago(12), ago(10)]);
  });

  it("oldest-first lists an incident's updates oldest first, alone and inside the incident", async () => {
    emulator = demoEmulator();
    const path = "/v1/status-pages/incidents/inc-api-errors";
    const newest = (await call(emulator.app, "GET", `${path}/incident-updates`)).json as unknown[];
    expect(newest.length).toBeGreaterThan(1);
    emulator.control.setBehaviour({ listOrder: "oldest-first" });
    const oldest = (await call(emulator.app, "GET", `${path}/incident-updates`)).json;
    expect(oldest).toEqual([...newest].reverse());
    const incident = (await call(emulator.app, "GET", path)).json as { incidentUpdates: unknown };
    expect(incident.incidentUpdates).toEqual([...newest].reverse());
  });
});

describe("rateWindow: the service's rate limit, answered 429 without Retry-After", () => {
  it("serves at most limit requests of a key in the window, then 429 with no Retry-After, each key apart", async () => {
    emulator = demoEmulator({ behaviour: { rateWindow: { limit: 3, seconds: 60 } } });
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 5; i++) {
      const answer = await call(emulator.app, "GET", EVENTS);
      statuses.push(answer.status);
      if (answer.status === 429) refused = answer;
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(refused?.headers.get("retry-after")).toBeNull();
    expect(refused?.json).toMatchInlineSnapshot(`
      {
        "error": "Too Many Requests",
        "message": "rate limit exceeded: at most 3 requests per 60 s with this API key",
        "statusCode": 429,
      }
    `);
    // Another key has a window of its own, and the counts show every 429.
    const other = await call(emulator.app, "GET", "/v1/error-groups/checks/chk-other-1", {
      key: OTHER_KEY,
    });
    expect(other.status).not.toBe(429);
    expect(emulator.control.stats().byStatus["429"]).toBe(2);
  });

  it("lets a key send again once its oldest request leaves the window", async () => {
    emulator = demoEmulator({ behaviour: { rateWindow: { limit: 2, seconds: 1 } } });
    const status = async () => (await call(emulator!.app, "GET", EVENTS)).status;
    expect([await status(), await status(), await status()]).toEqual([200, 200, 429]);
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    expect(await status()).toBe(200);
  });
});

describe("unknownCheck: what the check reads answer for a check that does not exist", () => {
  it("empty answers [] where not-found answers 404, for heartbeat events and error groups alike", async () => {
    emulator = demoEmulator();
    const missing = ["/v1/checks/heartbeats/hb-typo/events", "/v1/error-groups/checks/chk-typo"];
    for (const path of missing) expect((await call(emulator.app, "GET", path)).status).toBe(404);
    emulator.control.setBehaviour({ unknownCheck: "empty" });
    for (const path of missing) {
      expect(await call(emulator.app, "GET", path)).toMatchObject({ status: 200, json: [] });
    }
    // A check that exists still answers as before.
    expect(timestamps((await call(emulator.app, "GET", EVENTS)).json)).toHaveLength(3);
  });
});

describe("accountHeader: a personal API key needs the account", () => {
  it("required refuses 401 a request without x-service-account, and serves one with it", async () => {
    emulator = demoEmulator({ behaviour: { accountHeader: "required" } });
    const without = await call(emulator.app, "GET", EVENTS);
    expect(without.status).toBe(401);
    expect((without.json as { message: string }).message).toMatchInlineSnapshot(
      `"this API key is a personal key: send the account it acts for in x-service-account"`,
    );
    const withIt = await call(emulator.app, "GET", EVENTS, {
      headers: { "x-service-account": DEMO_ACCOUNT },
    });
    expect(withIt.status).toBe(200);
  });
});

describe("answers: lean answers leave out every field the contract does not promise", () => {
  it("an incident keeps only its required fields, its services id, name and account, and its updates id, created_at and description", async () => {
    emulator = demoEmulator({ behaviour: { answers: "lean" } });
    const put = await call(emulator.app, "PUT", "/v1/status-pages/incidents/inc-api-errors", {
      body: {
        name: "Elevated error rate on the public API",
        severity: "MAJOR",
        services: [service("svc-api")],
        duration: 30,
      },
    });
    expect(put.status).toBe(200);
    const incident = put.json as Record<string, unknown>;
    expect(Object.keys(incident).sort()).toEqual([
      "created_at",
      "id",
      "incidentUpdates",
      "lastUpdateStatus",
      "name",
      "services",
      "severity",
    ]);
    expect(incident.services).toEqual([service("svc-api")]);
    for (const update of incident.incidentUpdates as object[]) {
      expect(Object.keys(update).sort()).toEqual(["created_at", "description", "id"]);
    }
    const list = (await call(emulator.app, "GET", "/v1/status-pages/incidents?limit=1")).json as {
      entries: Record<string, unknown>[];
      length: number;
      nextId: string | null;
    };
    expect(Object.keys(list).sort()).toEqual(["entries", "length", "nextId"]);
    expect(list.entries[0]).not.toHaveProperty("updated_at");
  });

  it("an update alone keeps only its description, an events result nothing, an error group no analyses", async () => {
    emulator = demoEmulator({ behaviour: { answers: "lean" } });
    const updates = (
      await call(emulator.app, "GET", "/v1/status-pages/incidents/inc-api-errors/incident-updates")
    ).json as object[];
    expect(updates.length).toBeGreaterThan(0);
    for (const update of updates) expect(Object.keys(update)).toEqual(["description"]);
    const posted = await call(
      emulator.app,
      "POST",
      "/v1/status-pages/incidents/inc-api-errors/incident-updates",
      { body: { description: "Still looking.", status: "IDENTIFIED" } },
    );
    expect(posted.json).toEqual({ description: "Still looking." });
    expect((await call(emulator.app, "GET", EVENTS)).json).toEqual([{}]);
    const groups = (await call(emulator.app, "GET", "/v1/error-groups/checks/chk-api"))
      .json as object[];
    expect(groups.length).toBeGreaterThan(0);
    for (const group of groups) expect(group).not.toHaveProperty("rootCauseAnalyses");
  });
});

describe("createAnswer and createDelayMs: what a create answers, and when it is made", () => {
  const create = (emulator: Emulator) =>
    call(emulator.app, "POST", "/v1/status-pages/incidents", {
      body: {
        name: "Checkout fails",
        severity: "MAJOR",
        services: [service("svc-checkout")],
        incidentUpdates: [
          {
            description: "We are looking into it.",
            status: "INVESTIGATING",
            notifySubscribers: true,
          },
        ],
      },
    });
  type Created = { id: string; incidentUpdates: { id?: string; description: string }[] };

  it("answers without the updates' ids, or without the updates, while making the incident in full", async () => {
    emulator = demoEmulator({ behaviour: { createAnswer: "without-update-ids" } });
    const lacking = (await create(emulator)).json as Created;
    expect(lacking.incidentUpdates).toEqual([
      expect.objectContaining({ description: "We are looking into it." }),
    ]);
    expect(lacking.incidentUpdates[0]).not.toHaveProperty("id");
    emulator.control.setBehaviour({ createAnswer: "without-updates" });
    const empty = (await create(emulator)).json as Created;
    expect(empty.incidentUpdates).toEqual([]);
    const read = (await call(emulator.app, "GET", `/v1/status-pages/incidents/${empty.id}`))
      .json as Created;
    expect(read.incidentUpdates).toEqual([
      expect.objectContaining({ id: expect.any(String), description: "We are looking into it." }),
    ]);
    const sent = emulator.control.notifications(DEMO_ACCOUNT);
    expect(
      sent.filter((notification) => notification.description === "We are looking into it."),
    ).toHaveLength(2);
  });

  it("holds a create before it makes it and answers", async () => {
    emulator = demoEmulator({ behaviour: { createDelayMs: 200 } });
    const began = Date.now();
    const created = await create(emulator);
    expect(created.status).toBe(201);
    expect(Date.now() - began).toBeGreaterThanOrEqual(190);
  });
});

describe("choosing the behaviours", () => {
  it("reads INCIDENT_SYNC_EMULATOR_BEHAVIOUR as JSON, under the option and over the default", async () => {
    vi.stubEnv(BEHAVIOUR_ENV, JSON.stringify({ listOrder: "oldest-first", answers: "lean" }));
    emulator = demoEmulator({ behaviour: { answers: "full" } });
    expect(emulator.control.getBehaviour()).toEqual({
      ...DEFAULT_BEHAVIOUR,
      listOrder: "oldest-first",
      answers: "full",
    });
  });

  it("refuses a variable that is not a behaviour, saying which member and why", () => {
    vi.stubEnv(BEHAVIOUR_ENV, JSON.stringify({ listOrder: "sideways" }));
    expect(() => demoEmulator()).toThrowErrorMatchingInlineSnapshot(`
      [Error: INCIDENT_SYNC_EMULATOR_BEHAVIOUR is not a behaviour:
      ✖ Invalid option: expected one of "newest-first"|"oldest-first"
        → at listOrder]
    `);
  });

  it("changes a rate window through PATCH /_control/behaviour", async () => {
    emulator = demoEmulator();
    const patched = await call(emulator.app, "PATCH", "/_control/behaviour", {
      key: ADMIN,
      body: { rateWindow: { limit: 1, seconds: 60 } },
    });
    expect(patched.json).toMatchObject({ rateWindow: { limit: 1, seconds: 60 } });
    const statuses = [
      (await call(emulator.app, "GET", EVENTS)).status,
      (await call(emulator.app, "GET", EVENTS)).status,
    ];
    expect(statuses).toEqual([200, 429]);
  });
});

describe("editDate: what an update PUT without a date does to the update's public date", () => {
  const path = "/v1/status-pages/incidents/inc-api-errors/incident-updates";
  const change = async (date?: string) => {
    const [update] = (await call(emulator?.app as Emulator["app"], "GET", path)).json as {
      id: string;
      publicIncidentUpdateDate: string;
    }[];
    const body = {
      description: "Typo fixed.",
      notifySubscribers: false,
      ...(date === undefined ? {} : { publicIncidentUpdateDate: date }),
    };
    const changed = await call(emulator?.app as Emulator["app"], "PUT", `${path}/${update?.id}`, {
      body,
    });
    return {
      before: update?.publicIncidentUpdateDate,
      after: (changed.json as { publicIncidentUpdateDate: string }).publicIncidentUpdateDate,
    };
  };

  it("kept (the default) keeps the update's date; now re-dates it; a date sent is kept under both", async () => {
    emulator = demoEmulator();
    expect(DEFAULT_BEHAVIOUR.editDate).toBe("kept");
    const kept = await change();
    expect(kept.after).toBe(kept.before);
    emulator.control.setBehaviour({ editDate: "now" });
    const { before } = await change(ago(30));
    expect((await change()).after).toBe(NOW.toISOString());
    expect(before).not.toBe(NOW.toISOString());
    expect((await change(ago(30))).after).toBe(ago(30));
  });
});
