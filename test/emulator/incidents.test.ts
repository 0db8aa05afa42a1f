import { afterEach, describe, expect, it } from "vitest";
import type { Emulator } from "../../src/emulator";
import { ADMIN, call, demoEmulator, incidentBody, NOW, service } from "./helpers";

let emulator: Emulator;
afterEach(() => emulator?.close());

describe("PUT /v1/status-pages/incidents/{incidentId}", () => {
  it("updates name, severity, services and duration and answers the incident per 2.2", async () => {
    emulator = demoEmulator();
    const { status, json } = await call(
      emulator.app,
      "PUT",
      "/v1/status-pages/incidents/inc-checkout-latency",
      {
        body: {
          name: "Slow checkout in EU and US",
          severity: "MAJOR",
          services: [service("svc-checkout"), { ...service("svc-web"), name: "ignored" }],
          duration: 900,
        },
      },
    );
    expect(status).toBe(200);
    expect(json).toMatchObject({
      id: "inc-checkout-latency",
      name: "Slow checkout in EU and US",
      severity: "MAJOR",
      lastUpdateStatus: "INVESTIGATING",
      duration: 900,
      updated_at: NOW.toISOString(),
      services: [
        { id: "svc-checkout", name: "Checkout", accountId: "acct-demo" },
        { id: "svc-web", name: "Web app", accountId: "acct-demo" },
      ],
    });
    expect((json as { incidentUpdates: unknown[] }).incidentUpdates).toHaveLength(1);
  });

  it("appends an update when lastUpdateStatus changes and not when it stays", async () => {
    emulator = demoEmulator({ putStatus: "posts-update" });
    const path = "/v1/status-pages/incidents/inc-checkout-latency";
    const changed = await call(emulator.app, "PUT", path, {
      body: { ...incidentBody, services: [service("svc-checkout")], lastUpdateStatus: "RESOLVED" },
    });
    expect(changed.json).toMatchObject({
      lastUpdateStatus: "RESOLVED",
      incidentUpdates: [
        {
          description: "Status changed to RESOLVED",
          status: "RESOLVED",
          created_at: NOW.toISOString(),
          notifySubscribers: false,
        },
        { status: "INVESTIGATING" },
      ],
    });
    const same = await call(emulator.app, "PUT", path, {
      body: { ...incidentBody, services: [service("svc-checkout")], lastUpdateStatus: "RESOLVED" },
    });
    expect((same.json as { incidentUpdates: unknown[] }).incidentUpdates).toHaveLength(2);
  });

  it("ignores the server-owned id, created_at and updated_at sent in the body", async () => {
    emulator = demoEmulator();
    const { json } = await call(emulator.app, "PUT", "/v1/status-pages/incidents/inc-api-errors", {
      body: {
        ...incidentBody,
        id: "inc-hijack",
        created_at: "2000-01-01",
        updated_at: "2000-01-01T00:00:00Z",
      },
    });
    expect(json).toMatchObject({
      id: "inc-api-errors",
      created_at: new Date(NOW.getTime() - 3 * 3_600_000).toISOString(),
      updated_at: NOW.toISOString(),
    });
  });

  it("keeps the duration when it is not sent and clears it when it is null", async () => {
    emulator = demoEmulator();
    const path = "/v1/status-pages/incidents/inc-db-maintenance";
    const body = { ...incidentBody, services: [service("svc-db")] };
    expect((await call(emulator.app, "PUT", path, { body })).json).toMatchObject({
      duration: 7200,
    });
    expect(
      (await call(emulator.app, "PUT", path, { body: { ...body, duration: null } })).json,
    ).toMatchObject({ duration: null });
  });

  it("answers 404 with the spec'd message for an unknown incident", async () => {
    emulator = demoEmulator();
    const { status, json } = await call(emulator.app, "PUT", "/v1/status-pages/incidents/inc-x", {
      body: incidentBody,
    });
    expect(status).toBe(404);
    expect(json).toEqual({
      statusCode: 404,
      error: "Not Found",
      message: "incident inc-x not found",
    });
  });

  it("refuses a service id the account does not have, naming the known ones", async () => {
    emulator = demoEmulator();
    const { status, json } = await call(
      emulator.app,
      "PUT",
      "/v1/status-pages/incidents/inc-api-errors",
      {
        body: { ...incidentBody, services: [service("svc-nope")] },
      },
    );
    expect(status).toBe(400);
    expect(json).toMatchInlineSnapshot(`
      {
        "error": "Bad Request",
        "message": "services: svc-nope is not a service of this account; known services: svc-api, svc-auth, svc-checkout, svc-db, svc-web",
        "statusCode": 400,
      }
    `);
  });

  it("validates the body per 2.1 and lists every problem", async () => {
    emulator = demoEmulator();
    const { status, json } = await call(
      emulator.app,
      "PUT",
      "/v1/status-pages/incidents/inc-api-errors",
      {
        body: { name: "x".repeat(256), severity: "HUGE", services: [], extra: 1 },
      },
    );
    expect(status).toBe(400);
    expect(json).toMatchInlineSnapshot(`
      {
        "error": "Bad Request",
        "message": "invalid body: name: Too big: expected string to have <=255 characters; severity: Invalid option: expected one of "CRITICAL"|"MAJOR"|"MEDIUM"|"MINOR"; services: Too small: expected array to have >=1 items; body: Unrecognized key: "extra"",
        "statusCode": 400,
      }
    `);
  });

  it("accepts a name of exactly 255 characters", async () => {
    emulator = demoEmulator();
    const { status } = await call(
      emulator.app,
      "PUT",
      "/v1/status-pages/incidents/inc-api-errors",
      {
        body: { ...incidentBody, name: "x".repeat(255) },
      },
    );
    expect(status).toBe(200);
  });

  it("answers 400 for malformed JSON, 415 for another content type and 413 over 1 MiB", async () => {
    emulator = demoEmulator();
    const path = "/v1/status-pages/incidents/inc-api-errors";
    const malformed = await call(emulator.app, "PUT", path, {
      rawBody: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.json).toMatchInlineSnapshot(`
      {
        "error": "Bad Request",
        "message": "malformed JSON body: Expected property name or '}' in JSON at position 1 (line 1 column 2)",
        "statusCode": 400,
      }
    `);
    const text = await call(emulator.app, "PUT", path, {
      rawBody: JSON.stringify(incidentBody),
      headers: { "content-type": "text/plain" },
    });
    expect(text.json).toMatchInlineSnapshot(`
      {
        "error": "Unsupported Media Type",
        "message": "Content-Type must be application/json, got text/plain",
        "statusCode": 415,
      }
    `);
    const big = await call(emulator.app, "PUT", path, {
      body: { ...incidentBody, padding: "x".repeat(1024 * 1024) },
    });
    expect(big.json).toMatchInlineSnapshot(`
      {
        "error": "Payload Too Large",
        "message": "the request body is larger than 1048576 bytes (1 MiB): send a smaller incident",
        "statusCode": 413,
      }
    `);
  });
});

describe("GET /v1/status-pages/incidents/{incidentId}/incident-updates", () => {
  it("lists updates newest first", async () => {
    emulator = demoEmulator();
    const { status, json } = await call(
      emulator.app,
      "GET",
      "/v1/status-pages/incidents/inc-api-errors/incident-updates",
    );
    expect(status).toBe(200);
    expect((json as { status: string }[]).map((update) => update.status)).toEqual([
      "MONITORING",
      "IDENTIFIED",
      "INVESTIGATING",
    ]);
  });

  it("returns the 100 latest of 130 updates", async () => {
    emulator = demoEmulator();
    for (let i = 0; i < 130; i++) {
      emulator.control.appendIncidentUpdate("acct-demo", "inc-api-errors", {
        description: `update ${i}`,
        at: new Date(NOW.getTime() + i * 1000),
      });
    }
    const { json } = await call(
      emulator.app,
      "GET",
      "/v1/status-pages/incidents/inc-api-errors/incident-updates",
    );
    const updates = json as { description: string }[];
    expect(updates).toHaveLength(100);
    expect(updates[0]?.description).toBe("update 129");
    expect(updates[99]?.description).toBe("update 30");
  });

  it("shows an update posted through the control API, whose status becomes the incident's", async () => {
    emulator = demoEmulator();
    const posted = await call(
      emulator.app,
      "POST",
      "/_control/accounts/acct-demo/incidents/inc-checkout-latency/updates",
      {
        key: "test-admin-token",
        body: { description: "Fixed by scaling out.", status: "RESOLVED", notifySubscribers: true },
      },
    );
    expect(posted.status).toBe(201);
    const { json } = await call(
      emulator.app,
      "GET",
      "/v1/status-pages/incidents/inc-checkout-latency/incident-updates",
    );
    expect((json as unknown[])[0]).toMatchObject({
      description: "Fixed by scaling out.",
      status: "RESOLVED",
      notifySubscribers: true,
      created_at: NOW.toISOString(),
    });
    const put = await call(emulator.app, "PUT", "/v1/status-pages/incidents/inc-checkout-latency", {
      body: { ...incidentBody, services: [service("svc-checkout")] },
    });
    expect(put.json).toMatchObject({ lastUpdateStatus: "RESOLVED" });
  });

  it("answers 404 for an unknown incident", async () => {
    emulator = demoEmulator();
    const { status, json } = await call(
      emulator.app,
      "GET",
      "/v1/status-pages/incidents/inc-x/incident-updates",
    );
    expect(status).toBe(404);
    expect(json).toEqual({
      statusCode: 404,
      error: "Not Found",
      message: "incident inc-x not found",
    });
  });
});

describe("PATCH /_control/accounts/{a}/incidents/{i}: an edit in the status page UI", () => {
  const path = "/_control/accounts/acct-demo/incidents/inc-checkout-latency";
  const updates = async () =>
    (
      await call(
        emulator.app,
        "GET",
        "/v1/status-pages/incidents/inc-checkout-latency/incident-updates",
      )
    ).json as { description: string; status?: string; created_at: string }[];

  it("changes name, severity and services without posting an update", async () => {
    emulator = demoEmulator();
    const before = await updates();
    const { status, json } = await call(emulator.app, "PATCH", path, {
      key: ADMIN,
      body: { name: "Checkout is slow everywhere", severity: "CRITICAL", services: ["svc-web"] },
    });
    expect(status).toBe(200);
    expect(json).toMatchObject({
      id: "inc-checkout-latency",
      name: "Checkout is slow everywhere",
      severity: "CRITICAL",
      lastUpdateStatus: "INVESTIGATING",
      services: [{ id: "svc-web", name: "Web app", accountId: "acct-demo" }],
      updated_at: NOW.toISOString(),
    });
    expect(await updates()).toEqual(before);
  });

  it("posts `Status changed to X` with that status when the status changes, at the given time", async () => {
    emulator = demoEmulator();
    const { json } = await call(emulator.app, "PATCH", path, {
      key: ADMIN,
      body: { status: "MONITORING", at: "-5m" },
    });
    const at = new Date(NOW.getTime() - 5 * 60_000).toISOString();
    expect(json).toMatchObject({ lastUpdateStatus: "MONITORING", updated_at: at });
    expect((await updates())[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      description: "Status changed to MONITORING",
      status: "MONITORING",
      created_at: at,
      publicIncidentUpdateDate: at,
      notifySubscribers: false,
    });
    const again = await call(emulator.app, "PATCH", path, {
      key: ADMIN,
      body: { status: "MONITORING" },
    });
    expect(again.status).toBe(200);
    expect((await updates()).filter((update) => update.status === "MONITORING")).toHaveLength(1);
  });

  it("is a method of emulator.control, whose edit the next PUT answer shows", async () => {
    emulator = demoEmulator();
    emulator.control.editIncident("acct-demo", "inc-checkout-latency", {
      severity: "MINOR",
      status: "IDENTIFIED",
    });
    const put = await call(emulator.app, "PUT", "/v1/status-pages/incidents/inc-checkout-latency", {
      body: { ...incidentBody, services: [service("svc-checkout")] },
    });
    expect(put.json).toMatchObject({
      lastUpdateStatus: "IDENTIFIED",
      incidentUpdates: [{ description: "Status changed to IDENTIFIED", status: "IDENTIFIED" }, {}],
    });
  });

  it("refuses unknown services, an unknown incident or account, and unknown fields", async () => {
    emulator = demoEmulator();
    const unknownService = await call(emulator.app, "PATCH", path, {
      key: ADMIN,
      body: { services: ["svc-api", "svc-nope"] },
    });
    expect(unknownService.status).toBe(400);
    expect((unknownService.json as { message: string }).message).toMatchInlineSnapshot(
      `"services: svc-nope is not a service of this account; known services: svc-api, svc-auth, svc-checkout, svc-db, svc-web"`,
    );
    const unknownIncident = await call(
      emulator.app,
      "PATCH",
      "/_control/accounts/acct-demo/incidents/inc-nope",
      { key: ADMIN, body: { name: "x" } },
    );
    expect(unknownIncident.json).toMatchObject({
      statusCode: 404,
      message: "incident inc-nope not found",
    });
    const otherAccount = await call(
      emulator.app,
      "PATCH",
      "/_control/accounts/acct-other/incidents/inc-checkout-latency",
      { key: ADMIN, body: { name: "x" } },
    );
    expect(otherAccount.status).toBe(404);
    const typo = await call(emulator.app, "PATCH", path, {
      key: ADMIN,
      body: { severty: "MINOR", status: "DONE" },
    });
    expect((typo.json as { message: string }).message).toMatchInlineSnapshot(
      `"invalid body: status: Invalid option: expected one of "INVESTIGATING"|"IDENTIFIED"|"MONITORING"|"RESOLVED"; body: Unrecognized key: "severty""`,
    );
  });
});
