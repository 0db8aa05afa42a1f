import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createEmulator,
  DEFAULT_BEHAVIOUR,
  type Emulator,
  PUT_STATUS_ENV,
} from "../../src/emulator";
import { ADMIN, call, DEMO_ACCOUNT, demoEmulator, incidentBody, NOW, service } from "./helpers";

let emulator: Emulator | undefined;
afterEach(() => {
  emulator?.close();
  emulator = undefined;
  vi.unstubAllEnvs();
});

const PATH = "/v1/status-pages/incidents/inc-checkout-latency";
const resolve = {
  ...incidentBody,
  services: [service("svc-checkout")],
  lastUpdateStatus: "RESOLVED",
};

type Answer = {
  lastUpdateStatus: string;
  incidentUpdates: { description: string; status?: string }[];
};

async function put(app: Emulator["app"], body: unknown = resolve) {
  return call(app, "PUT", PATH, { body });
}

async function updates(app: Emulator["app"]) {
  return (await call(app, "GET", `${PATH}/incident-updates`)).json as Answer["incidentUpdates"];
}

describe("services in a PUT name the account the request acts for", () => {
  it("refuses 400 a service whose accountId is another account, naming the field, and changes nothing", async () => {
    emulator = demoEmulator();
    const body = {
      ...incidentBody,
      name: "Renamed by the wrong account",
      services: [service("svc-checkout"), service("svc-web", "acct-other")],
      lastUpdateStatus: "RESOLVED",
    };
    // An edit that changes nothing reads the incident as it stands.
    const read = () => emulator!.control.editIncident(DEMO_ACCOUNT, "inc-checkout-latency", {});
    const before = read();
    const { status, json } = await put(emulator.app, body);
    expect(status).toBe(400);
    expect(json).toMatchInlineSnapshot(`
      {
        "error": "Bad Request",
        "message": "body.services[1].accountId: must be the account the request acts for (acct-demo), not "acct-other"",
        "statusCode": 400,
      }
    `);
    expect(read()).toEqual(before);
  });

  it("accepts the acting account when the key's account is also named in x-service-account", async () => {
    emulator = demoEmulator();
    const { status } = await call(emulator.app, "PUT", PATH, {
      body: resolve,
      headers: { "x-service-account": DEMO_ACCOUNT },
    });
    expect(status).toBe(200);
  });
});

describe("what a PUT does with lastUpdateStatus (putStatus)", () => {
  it('with posts-update, a changed status appends "Status changed to X"', async () => {
    emulator = demoEmulator({ putStatus: "posts-update" });
    const { json } = await put(emulator.app);
    expect(json).toMatchObject({
      lastUpdateStatus: "RESOLVED",
      incidentUpdates: [
        {
          description: "Status changed to RESOLVED",
          status: "RESOLVED",
          created_at: NOW.toISOString(),
        },
        { status: "INVESTIGATING" },
      ],
    });
    expect((await updates(emulator.app)).map((update) => update.status)).toEqual([
      "RESOLVED",
      "INVESTIGATING",
    ]);
  });

  it("with sets-field, a changed status posts no update, yet the answer holds the new status", async () => {
    emulator = demoEmulator({ putStatus: "sets-field" });
    const before = await updates(emulator.app);
    const { status, json } = await put(emulator.app);
    expect(status).toBe(200);
    expect(json).toMatchObject({ lastUpdateStatus: "RESOLVED", incidentUpdates: before });
    expect(await updates(emulator.app)).toEqual(before);
    // The field stays set: a PUT without a status answers it again.
    const again = await put(emulator.app, { ...resolve, lastUpdateStatus: undefined });
    expect((again.json as Answer).lastUpdateStatus).toBe("RESOLVED");
  });

  it("with ignores, the status stays as it was, and the answer shows the one it kept", async () => {
    emulator = demoEmulator({ putStatus: "ignores" });
    const before = await updates(emulator.app);
    const { status, json } = await put(emulator.app);
    expect(status).toBe(200);
    expect(json).toMatchObject({ lastUpdateStatus: "INVESTIGATING", incidentUpdates: before });
    expect(await updates(emulator.app)).toEqual(before);
    // Name, severity and services are still replaced: only the status does not take.
    const renamed = await put(emulator.app, { ...resolve, name: "Checkout is slow" });
    expect(renamed.json).toMatchObject({
      name: "Checkout is slow",
      lastUpdateStatus: "INVESTIGATING",
    });
  });

  it("is switched by PATCH /_control/behaviour, which answers the behaviour now", async () => {
    emulator = demoEmulator({ putStatus: "posts-update" });
    expect((await call(emulator.app, "GET", "/_control/behaviour", { key: ADMIN })).json).toEqual({
      ...DEFAULT_BEHAVIOUR,
      putStatus: "posts-update",
    });
    const patched = await call(emulator.app, "PATCH", "/_control/behaviour", {
      key: ADMIN,
      body: { putStatus: "sets-field" },
    });
    expect(patched).toMatchObject({ status: 200, json: { putStatus: "sets-field" } });
    expect(emulator.control.getBehaviour()).toEqual({
      ...DEFAULT_BEHAVIOUR,
      putStatus: "sets-field",
    });
    const before = await updates(emulator.app);
    await put(emulator.app);
    expect(await updates(emulator.app)).toEqual(before);

    const unchanged = await call(emulator.app, "PATCH", "/_control/behaviour", {
      key: ADMIN,
      body: {},
    });
    expect(unchanged.json).toEqual({ ...DEFAULT_BEHAVIOUR, putStatus: "sets-field" });
    const unknown = await call(emulator.app, "PATCH", "/_control/behaviour", {
      key: ADMIN,
      body: { putStatus: "posts-twice" },
    });
    expect(unknown.status).toBe(400);
    expect((unknown.json as { message: string }).message).toMatchInlineSnapshot(
      `"invalid body: putStatus: Invalid option: expected one of "posts-update"|"sets-field"|"ignores""`,
    );
    const withoutToken = await call(emulator.app, "PATCH", "/_control/behaviour", {
      body: { putStatus: "posts-update" },
    });
    expect(withoutToken.status).toBe(401);
    expect(emulator.control.getBehaviour()).toEqual({
      ...DEFAULT_BEHAVIOUR,
      putStatus: "sets-field",
    });
  });

  it("honours the seed's behaviour.putStatus when neither the option nor the environment says", async () => {
    vi.stubEnv(PUT_STATUS_ENV, "");
    emulator = createEmulator({
      now: () => NOW,
      seed: {
        behaviour: { putStatus: "sets-field" },
        accounts: [
          {
            id: "acct-seeded",
            apiKeys: ["seeded-key"],
            services: [{ id: "svc-1", name: "One" }],
            incidents: [{ id: "inc-1", name: "One", severity: "MINOR", services: ["svc-1"] }],
          },
        ],
      },
    });
    expect(emulator.control.getBehaviour()).toEqual({
      ...DEFAULT_BEHAVIOUR,
      putStatus: "sets-field",
    });
    const { json } = await call(emulator.app, "PUT", "/v1/status-pages/incidents/inc-1", {
      key: "seeded-key",
      body: {
        name: "One",
        severity: "MINOR",
        services: [{ id: "svc-1", name: "One", accountId: "acct-seeded" }],
        lastUpdateStatus: "RESOLVED",
      },
    });
    expect(json).toMatchObject({ lastUpdateStatus: "RESOLVED", incidentUpdates: [] });
  });

  it("takes the environment over the seed, and the option over both", () => {
    vi.stubEnv(PUT_STATUS_ENV, "sets-field");
    const seed = { behaviour: { putStatus: "posts-update" as const }, accounts: [] };
    emulator = createEmulator({ seed });
    expect(emulator.control.getBehaviour()).toEqual({
      ...DEFAULT_BEHAVIOUR,
      putStatus: "sets-field",
    });
    emulator.close();
    emulator = createEmulator({ seed, putStatus: "posts-update" });
    expect(emulator.control.getBehaviour()).toMatchObject({ putStatus: "posts-update" });
  });

  it("fails to start with a clear message when the environment names an unknown behaviour", () => {
    vi.stubEnv(PUT_STATUS_ENV, "posts-twice");
    expect(() => createEmulator({ seed: "demo" })).toThrowErrorMatchingInlineSnapshot(
      `[Error: INCIDENT_SYNC_EMULATOR_PUT_STATUS is "posts-twice"; it must be posts-update, sets-field or ignores]`,
    );
  });
});
