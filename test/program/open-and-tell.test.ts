import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import program from "../../index";
import { createClient, type IncidentResponse } from "../../src/api";
import type { PutStatus } from "../../src/emulator";
import { CLAIM_PHASE_VARIABLE, oldestFirst } from "../../src/incident";
import { configKey } from "../../src/settings";
import { type EmulatorSandbox, startEmulatorSandbox } from "../engine/support/emulator-sandbox";
import { rewriteAnswers } from "../support/rewrite-answers";
import { changesOf, failuresOf, MockEngine } from "./support/mock-engine";
import { UNTHROTTLED } from "./support/program-stack";
import { setProjectDirectory } from "./support/project-directory";

/** A new incident's definition: no id, a resource, two updates, the first one notifying. */
function newIncident(resource: string, service: string): string {
  return [
    `resource: ${resource}`,
    `name: ${resource} is failing`,
    "severity: MAJOR",
    `services: [${service}]`,
    "updates:",
    "  - status: INVESTIGATING",
    `    message: We are looking into failures of ${resource}.`,
    "    notify: true",
    "  - status: IDENTIFIED",
    "    message: |",
    "      We found the cause: a bad deploy.",
    "      We are rolling it back.",
    "",
  ].join("\n");
}

const RESOURCES = ["checkout-down", "login-down", "search-down"];

/** An answer without the updates of that message (a read that lags behind a post). */
function without(body: unknown, message: string): unknown {
  if (Array.isArray(body)) {
    return body
      .filter((item) => (item as { description?: unknown } | null)?.description !== message)
      .map((item) => without(item, message));
  }
  if (body === null || typeof body !== "object") return body;
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) => [key, without(value, message)]),
  );
}

/**
 * An answer as a service may give it: updates in the other order, dated by the day alone,
 * without their status.
 */
function blurred(body: unknown): unknown {
  if (Array.isArray(body)) return [...body].reverse().map(blurred);
  if (body === null || typeof body !== "object") return body;
  return Object.fromEntries(
    Object.entries(body).flatMap(([key, value]): [string, unknown][] => {
      if (key === "status") return [];
      if (key === "created_at" && typeof value === "string") return [[key, value.slice(0, 10)]];
      return [[key, blurred(value)]];
    }),
  );
}

/**
 * Opening incidents from git and telling customers what happens, in process under Pulumi's
 * mocks against the emulator over HTTP, under each PUT behaviour the service may have: the
 * updates are posted, never sent through PUT's status, so they are right under both.
 */
describe.each<PutStatus>(["posts-update", "sets-field"])(
  "new incidents and their updates, with a service whose PUT %s",
  (putStatus) => {
    let sandbox: EmulatorSandbox;
    let project: string;
    let engine: MockEngine;
    const control = () => sandbox.emulator.emulator.control;
    const account = () => sandbox.emulator.demo.accountId;
    const client = () =>
      createClient({
        baseUrl: sandbox.emulator.url,
        accountId: account(),
        apiKey: sandbox.emulator.demo.apiKey,
      });
    const file = (resource: string) => join(project, "incidents", `${resource}.yaml`);
    const edit = (resource: string, change: (text: string) => string) =>
      writeFileSync(file(resource), change(readFileSync(file(resource), "utf8")));
    const up = () => engine.run(program);
    const opened = async (resource: string): Promise<IncidentResponse> => {
      const id = engine.stateOf(resource)?.incidentId ?? "";
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      return client().incidents.get(id);
    };
    /** What reached the subscribers' inboxes about the incidents these definitions opened. */
    const sent = () => {
      const ids = new Set(RESOURCES.map((resource) => engine.stateOf(resource)?.incidentId));
      return control()
        .notifications(account())
        .filter((notification) => ids.has(notification.incidentId));
    };
    /** What reached the subscribers' inboxes about one incident, oldest first. */
    const notifiedOf = (incidentId: string) =>
      control()
        .notifications(account())
        .filter((notification) => notification.incidentId === incidentId)
        .map(({ status, description }) => ({ status, description }));
    /** The id of the one incident of the account with that name. */
    const idOfName = async (name: string) => {
      const page = await client().incidents.listPage({ limit: 100 });
      const named = page.entries.filter((incident) => incident.name === name);
      expect(named).toHaveLength(1);
      return named[0]?.id ?? "";
    };
    const messages = async (resource: string) =>
      oldestFirst((await opened(resource)).incidentUpdates).map((update) => ({
        status: update.status,
        description: update.description,
        notified: update.notifySubscribers,
      }));

    beforeAll(async () => {
      sandbox = await startEmulatorSandbox(`open-${putStatus}`, "demo", { putStatus });
      project = mkdtempSync(join(tmpdir(), "incident-sync-open-"));
      mkdirSync(join(project, "incidents"));
      writeFileSync(join(project, "Pulumi.yaml"), "name: incident-sync\nruntime: nodejs\n");
      ["svc-api", "svc-auth", "svc-web"].forEach((service, index) => {
        const resource = RESOURCES[index] ?? "";
        writeFileSync(file(resource), newIncident(resource, service));
      });
      writeFileSync(
        join(project, "incidents", "services.yaml"),
        "svc-api: Public API\nsvc-auth: Login and SSO\nsvc-web: Web app\n",
      );
      setProjectDirectory(project);
      engine = new MockEngine({
        [configKey("baseUrl")]: sandbox.emulator.url,
        [configKey("accountId")]: account(),
        [configKey("apiKey")]: sandbox.emulator.demo.apiKey,
        [configKey("outputs")]: "full",
        ...UNTHROTTLED,
      });
    });

    afterAll(async () => {
      await sandbox?.close();
      rmSync(project, { recursive: true, force: true });
    });

    it("opens three incidents in one up, each with both messages in order and one notification", async () => {
      const run = await up();
      expect(run.error).toBeUndefined();
      expect(changesOf(run)).toEqual({ create: 3 });
      for (const resource of RESOURCES) {
        expect(await messages(resource)).toEqual([
          {
            status: "INVESTIGATING",
            description: `We are looking into failures of ${resource}.`,
            notified: true,
          },
          {
            status: "IDENTIFIED",
            description: "We found the cause: a bad deploy.\nWe are rolling it back.\n",
            notified: false,
          },
        ]);
        expect((await opened(resource)).lastUpdateStatus).toBe("IDENTIFIED");
      }
      const notifications = sent();
      expect(notifications).toHaveLength(3);
      expect(new Set(notifications.map((sent) => sent.incidentId)).size).toBe(3);
      // The outputs name each by the id the service gave it.
      const ids = RESOURCES.map((resource) => engine.stateOf(resource)?.incidentId);
      expect(Object.keys(run.outputs?.incidents as object).sort()).toEqual([...ids].sort());
      expect(run.outputs?.drift).toEqual([]);
    });

    it("changes nothing on a second up, and writes nothing", async () => {
      control().resetStats();
      const run = await up();
      expect(run.error).toBeUndefined();
      expect(changesOf(run)).toEqual({});
      const { byOperation } = control().stats();
      for (const write of [
        "createIncident",
        "postIncidentUpdate",
        "updateIncidentUpdate",
        "updateIncident",
      ]) {
        expect(byOperation[write], write).toBeUndefined();
      }
    });

    it("posts exactly one update for a third entry, notifying as it says", async () => {
      edit(
        "checkout-down",
        (text) =>
          `${text}  - status: RESOLVED\n    message: The rollback is done; checkouts work again.\n    notify: true\n`,
      );
      control().resetStats();
      const run = await up();
      expect(run.error).toBeUndefined();
      expect(changesOf(run)).toEqual({ update: 1 });
      expect(control().stats().byOperation.postIncidentUpdate?.total).toBe(1);
      expect((await messages("checkout-down")).map((update) => update.status)).toEqual([
        "INVESTIGATING",
        "IDENTIFIED",
        "RESOLVED",
      ]);
      expect((await opened("checkout-down")).lastUpdateStatus).toBe("RESOLVED");
      expect(sent()).toHaveLength(4);
      expect(changesOf(await up())).toEqual({});
    });

    it("changes an edited message in place: no new update, no notification", async () => {
      edit("login-down", (text) =>
        text.replace("failures of login-down.", "failed logins with SSO."),
      );
      const before = await messages("login-down");
      control().resetStats();
      const run = await up();
      expect(run.error).toBeUndefined();
      expect(changesOf(run)).toEqual({ update: 1 });
      const { byOperation } = control().stats();
      expect(byOperation.updateIncidentUpdate?.total).toBe(1);
      expect(byOperation.postIncidentUpdate).toBeUndefined();
      const after = await messages("login-down");
      expect(after).toHaveLength(2);
      expect(after[0]?.description).toBe("We are looking into failed logins with SSO.");
      expect(after[1]).toEqual(before[1]);
      expect(sent()).toHaveLength(4);
    });

    it("refuses to remove a posted entry, sending nothing, and says how to fix it", async () => {
      const text = readFileSync(file("search-down"), "utf8");
      edit("search-down", (current) => current.slice(0, current.indexOf("  - status: IDENTIFIED")));
      control().resetStats();
      try {
        const run = await up();
        expect(failuresOf(run)).toEqual([
          expect.stringMatching(
            /^search-down: incident [0-9a-f-]{36}: updates\[1\] \("We found the cause: a bad deploy\."\) is posted, and is no longer declared: customers have read it, and it stays on the status page\. Put the entry back/,
          ),
        ]);
        expect(control().stats().byOperation.postIncidentUpdate).toBeUndefined();
      } finally {
        writeFileSync(file("search-down"), text);
      }
      expect(changesOf(await up())).toEqual({});
    });

    it("never posts an update twice when the answer of a post is lost after the service made it", async () => {
      edit(
        "search-down",
        (text) => `${text}  - status: MONITORING\n    message: A fix is out; we are watching.\n`,
      );
      control().setFaults({ lostAnswerRate: 1 });
      control().resetStats();
      let run: Awaited<ReturnType<typeof up>>;
      try {
        run = await up();
      } finally {
        control().setFaults({});
      }
      // The post's answer was lost: the provider read the incident, found it, and sent no more.
      expect(run.error).toBeUndefined();
      expect(control().stats().byOperation.postIncidentUpdate?.total).toBe(1);
      const updates = await messages("search-down");
      expect(updates.map((update) => update.status)).toEqual([
        "INVESTIGATING",
        "IDENTIFIED",
        "MONITORING",
      ]);
      expect(changesOf(await up())).toEqual({});
    });

    it("opens an incident once when the answers of its create and posts are lost, taking what the service made", async () => {
      writeFileSync(file("payments-down"), newIncident("payments-down", "svc-api"));
      control().setFaults({ lostAnswerRate: 1 });
      control().resetStats();
      let run: Awaited<ReturnType<typeof up>>;
      try {
        run = await up();
      } finally {
        control().setFaults({});
        rmSync(file("payments-down"));
      }
      expect(run.error).toBeUndefined();
      const { byOperation } = control().stats();
      expect(byOperation.createIncident?.total).toBe(1);
      expect(byOperation.postIncidentUpdate?.total).toBe(1);
      const named = await client().incidents.listPage({ limit: 100 });
      expect(
        named.entries.filter((incident) => incident.name === "payments-down is failing"),
      ).toHaveLength(1);
      expect((await messages("payments-down")).map((update) => update.notified)).toEqual([
        true,
        false,
      ]);
      // Removed from git (onRemove: release), it stays on the status page as it is.
      const removed = await up();
      expect(removed.steps).toContainEqual({ name: "payments-down", op: "delete" });
    });

    it("takes an incident a stopped run opened instead of opening another, and refuses an old look-alike", async () => {
      // What a run stopped after the create and before its state was written leaves: the
      // incident on the status page, and no record of it.
      await client().incidents.create({
        name: "orders-down is failing",
        severity: "MAJOR",
        services: [{ id: "svc-api", name: "Public API", accountId: account() }],
        incidentUpdates: [
          {
            description: "We are looking into failures of orders-down.",
            status: "INVESTIGATING",
            notifySubscribers: true,
          },
        ],
      });
      // And an incident of two days ago written the same way.
      control().loadSeed({
        accounts: [
          {
            id: account(),
            apiKeys: [sandbox.emulator.demo.apiKey],
            services: [{ id: "svc-api", name: "Public API" }],
            incidents: [
              {
                id: "inc-old-lookalike",
                name: "refunds-down is failing",
                severity: "MAJOR",
                services: ["svc-api"],
                created_at: "-2d",
                updates: [
                  {
                    description: "We are looking into failures of refunds-down.",
                    status: "INVESTIGATING",
                    created_at: "-2d",
                  },
                ],
              },
            ],
          },
        ],
      });
      writeFileSync(file("orders-down"), newIncident("orders-down", "svc-api"));
      writeFileSync(file("refunds-down"), newIncident("refunds-down", "svc-api"));
      control().resetStats();
      try {
        const run = await up();
        const failures = failuresOf(run);
        expect(failures).toHaveLength(1);
        expect(failures[0]).toMatch(
          /^refunds-down: incident "refunds-down is failing" \(resource refunds-down\) is not opened: incident inc-old-lookalike, opened at \S+ and not resolved, has the same name and the same first message \("We are looking into failures of refunds-down\."\), and opening another would put the same text on the status page twice\. If inc-old-lookalike is this one, add "id: inc-old-lookalike" to the definition; if this is a new incident, make its first message say so/,
        );
        const { byOperation } = control().stats();
        expect(byOperation.createIncident).toBeUndefined();
        // The stopped run's incident is taken: only its second entry is posted.
        expect(byOperation.postIncidentUpdate?.total).toBe(1);
        expect((await messages("orders-down")).map((update) => update.status)).toEqual([
          "INVESTIGATING",
          "IDENTIFIED",
        ]);
      } finally {
        rmSync(file("orders-down"));
        rmSync(file("refunds-down"));
      }
    });

    it("resolves a removed incident whose onRemove says so with one last update, notifying nobody", async () => {
      writeFileSync(
        file("billing-down"),
        `${newIncident("billing-down", "svc-web")}onRemove: resolve\n`,
      );
      expect((await up()).error).toBeUndefined();
      const id = engine.stateOf("billing-down")?.incidentId ?? "";
      expect(await idOfName("billing-down is failing")).toBe(id);
      rmSync(file("billing-down"));
      control().resetStats();
      const removed = await up();
      expect(removed.steps).toContainEqual({ name: "billing-down", op: "delete" });
      expect(control().stats().byOperation.postIncidentUpdate?.total).toBe(1);
      const incident = await client().incidents.get(id);
      expect(oldestFirst(incident.incidentUpdates).at(-1)).toMatchObject({
        status: "RESOLVED",
        description: "This incident is resolved.",
        notifySubscribers: false,
      });
      expect(incident.lastUpdateStatus).toBe("RESOLVED");
      // Only the opening reached the subscribers.
      expect(notifiedOf(id)).toEqual([
        { status: "INVESTIGATING", description: "We are looking into failures of billing-down." },
      ]);
    });

    it("resolves a removed incident with its declared closing word, sent to every subscriber", async () => {
      const closing = "Billing works again. Thank you for your patience.";
      writeFileSync(
        file("invoices-down"),
        `${newIncident("invoices-down", "svc-web")}onRemove: resolve\nclosing:\n  message: ${closing}\n  notify: true\n`,
      );
      expect((await up()).error).toBeUndefined();
      const id = engine.stateOf("invoices-down")?.incidentId ?? "";
      expect(await idOfName("invoices-down is failing")).toBe(id);
      rmSync(file("invoices-down"));
      control().resetStats();
      const removed = await up();
      expect(removed.error).toBeUndefined();
      expect(removed.steps).toContainEqual({ name: "invoices-down", op: "delete" });
      expect(control().stats().byOperation.postIncidentUpdate?.total).toBe(1);
      const incident = await client().incidents.get(id);
      expect(oldestFirst(incident.incidentUpdates).at(-1)).toMatchObject({
        status: "RESOLVED",
        description: closing,
        notifySubscribers: true,
      });
      expect(incident.lastUpdateStatus).toBe("RESOLVED");
      // The subscribers told of the opening hear, once, that it ended.
      expect(notifiedOf(id)).toEqual([
        { status: "INVESTIGATING", description: "We are looking into failures of invoices-down." },
        { status: "RESOLVED", description: closing },
      ]);
    });

    it("resolves, on removal, an incident a stopped run opened after the claim recorded its intent", async () => {
      writeFileSync(file("cdn-down"), `${newIncident("cdn-down", "svc-web")}onRemove: resolve\n`);
      vi.stubEnv(CLAIM_PHASE_VARIABLE, "claim");
      try {
        expect((await up()).error).toBeUndefined();
      } finally {
        vi.unstubAllEnvs();
      }
      expect(engine.stateOf("cdn-down")).toMatchObject({ claimed: true, incidentId: "" });
      // The apply run opened it and was killed before it could record it.
      const opened = await client().incidents.create({
        name: "cdn-down is failing",
        severity: "MAJOR",
        services: [{ id: "svc-web", name: "Web app", accountId: account() }],
        incidentUpdates: [
          {
            description: "We are looking into failures of cdn-down.",
            status: "INVESTIGATING",
            notifySubscribers: true,
          },
        ],
      });
      rmSync(file("cdn-down"));
      const removed = await up();
      expect(removed.steps).toContainEqual({ name: "cdn-down", op: "delete" });
      expect((await client().incidents.get(opened.id)).lastUpdateStatus).toBe("RESOLVED");
    });

    it("posts an update once when its answer names no id and a read does not show it yet, and learns its id later", async () => {
      writeFileSync(file("cart-down"), newIncident("cart-down", "svc-web"));
      expect((await up()).error).toBeUndefined();
      const message = "A fix is out for cart-down.";
      edit(
        "cart-down",
        (text) => `${text}  - status: MONITORING\n    message: ${message}\n    notify: true\n`,
      );
      // The post's answer has no id, and the reads of this run lag behind it.
      const unnamed = rewriteAnswers(
        (method, url) => method === "POST" && url.pathname.endsWith("/incident-updates"),
        (body) => ({ ...(body as object), id: undefined }),
      );
      const lagging = rewriteAnswers(
        (method, url) => method === "GET" && url.pathname.startsWith("/v1/status-pages/incidents"),
        (body) => without(body, message),
      );
      control().resetStats();
      let run: Awaited<ReturnType<typeof up>>;
      try {
        run = await up();
      } finally {
        lagging();
        unnamed();
      }
      expect(run.error).toBeUndefined();
      expect(control().stats().byOperation.postIncidentUpdate?.total).toBe(1);
      expect(engine.stateOf("cart-down")?.updateIds?.[2]).toBe("");
      // An edit of that entry finds it by its text, and changes it in place.
      edit("cart-down", (text) => text.replace(message, "A fix is out; carts work again."));
      control().resetStats();
      expect((await up()).error).toBeUndefined();
      const { byOperation } = control().stats();
      expect(byOperation.postIncidentUpdate).toBeUndefined();
      expect(byOperation.updateIncidentUpdate?.total).toBe(1);
      const posted = (await opened("cart-down")).incidentUpdates.find(
        (update) => update.description === "A fix is out; carts work again.",
      );
      expect(engine.stateOf("cart-down")?.updateIds?.[2]).toBe(posted?.id);
      rmSync(file("cart-down"));
      expect((await up()).error).toBeUndefined();
    });

    it("finds what a stopped run posted whatever the service's order, the precision of its times or a status left out", async () => {
      writeFileSync(file("queue-down"), newIncident("queue-down", "svc-api"));
      expect((await up()).error).toBeUndefined();
      const id = engine.stateOf("queue-down")?.incidentId ?? "";
      // A run posted the third entry, and was stopped before it could record it.
      await client().incidents.postUpdate(id, {
        description: "The queue is drained.",
        status: "MONITORING",
        notifySubscribers: true,
      });
      edit(
        "queue-down",
        (text) =>
          `${text}  - status: MONITORING\n    message: The queue is drained.\n    notify: true\n`,
      );
      const restore = rewriteAnswers(
        (method, url) => method === "GET" && url.pathname.startsWith("/v1/status-pages/incidents"),
        blurred,
      );
      control().resetStats();
      let run: Awaited<ReturnType<typeof up>>;
      try {
        run = await up();
      } finally {
        restore();
      }
      expect(run.error).toBeUndefined();
      expect(control().stats().byOperation.postIncidentUpdate).toBeUndefined();
      expect(changesOf(await up())).toEqual({});
      rmSync(file("queue-down"));
      expect((await up()).error).toBeUndefined();
    });

    it("opens nothing while an incident of its name cannot be read, saying which", async () => {
      writeFileSync(file("ledger-down"), newIncident("ledger-down", "svc-api"));
      const restore = rewriteAnswers(
        (method, url) => method === "GET" && url.pathname === "/v1/status-pages/incidents",
        (body) => {
          const page = body as { entries: unknown[] };
          return {
            ...page,
            entries: [
              ...page.entries,
              { id: "inc-odd", name: "ledger-down is failing", severity: 7 },
            ],
          };
        },
      );
      control().resetStats();
      try {
        const run = await up();
        expect(failuresOf(run)).toContainEqual(
          expect.stringMatching(
            /^ledger-down: .*not opened: the service lists incidents of its name .* may be this one and cannot be read: inc-odd \(.*severity/,
          ),
        );
        expect(control().stats().byOperation.createIncident).toBeUndefined();
      } finally {
        restore();
        rmSync(file("ledger-down"));
      }
    });

    it("keeps the incident of a new one renamed without aliases: the old resource is released, not resolved", async () => {
      const text = `${newIncident("dns-down", "svc-web")}onRemove: resolve\n`;
      writeFileSync(file("dns-down"), text);
      expect((await up()).error).toBeUndefined();
      const id = engine.stateOf("dns-down")?.incidentId;
      rmSync(file("dns-down"));
      writeFileSync(
        file("dns-renamed"),
        text.replace("resource: dns-down", "resource: dns-renamed"),
      );
      control().resetStats();
      const renamed = await up();
      expect(renamed.error).toBeUndefined();
      expect(renamed.steps).toContainEqual({ name: "dns-down", op: "delete" });
      expect(engine.stateOf("dns-renamed")?.incidentId).toBe(id);
      const { byOperation } = control().stats();
      // Taken with both its entries found posted: nothing opened, posted or resolved.
      expect(byOperation.createIncident).toBeUndefined();
      expect(byOperation.postIncidentUpdate).toBeUndefined();
      expect((await client().incidents.get(id ?? "")).lastUpdateStatus).toBe("IDENTIFIED");
      rmSync(file("dns-renamed"));
      expect((await up()).error).toBeUndefined();
    });

    it("refuses to drop the updates an incident posted, and to reopen one resolved by a PUT's field", async () => {
      writeFileSync(file("sms-down"), newIncident("sms-down", "svc-auth"));
      expect((await up()).error).toBeUndefined();
      const id = engine.stateOf("sms-down")?.incidentId ?? "";
      const before = readFileSync(file("sms-down"), "utf8");
      writeFileSync(
        file("sms-down"),
        `id: ${id}\n${before.slice(0, before.indexOf("updates:"))}status: IDENTIFIED\n`,
      );
      control().resetStats();
      const dropped = await up();
      expect(failuresOf(dropped)).toContainEqual(
        expect.stringMatching(/^sms-down: .*updates\[0\] .* is posted, and is no longer declared/),
      );
      expect(control().stats().byOperation.updateIncident).toBeUndefined();
      // Resolved on the status page by a PUT of the field (which under sets-field posts no update).
      writeFileSync(
        file("sms-down"),
        `${before}  - status: MONITORING\n    message: Texts are flowing again.\n    notify: true\n`,
      );
      await client().incidents.update(id, {
        name: "sms-down is failing",
        severity: "MAJOR",
        services: [{ id: "svc-auth", name: "Login and SSO", accountId: account() }],
        lastUpdateStatus: "RESOLVED",
      });
      control().resetStats();
      const reopening = await up();
      expect(failuresOf(reopening)).toContainEqual(
        expect.stringMatching(/^sms-down: .*the incident is RESOLVED on the status page/),
      );
      expect(control().stats().byOperation.postIncidentUpdate).toBeUndefined();
      expect(sent().filter((notification) => notification.incidentId === id)).toHaveLength(0);
      rmSync(file("sms-down"));
      expect((await up()).error).toBeUndefined();
    });

    it("reads a create answered 404 for what it can mean, naming the service sent that the account does not list", async () => {
      const catalog = join(project, "incidents", "services.yaml");
      const services = readFileSync(catalog, "utf8");
      writeFileSync(catalog, `${services}svc-retired: Retired service\n`);
      writeFileSync(file("fax-down"), newIncident("fax-down", "svc-retired"));
      // The reference documents 404 for a create; the emulator's own answer is a 400.
      const real = globalThis.fetch;
      vi.stubGlobal("fetch", async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
        const request = new Request(input, init);
        const url = new URL(request.url);
        if (request.method === "POST" && url.pathname === "/v1/status-pages/incidents") {
          return Response.json({ message: "Not Found" }, { status: 404 });
        }
        return real(request);
      });
      control().resetStats();
      try {
        const run = await up();
        const [failure] = failuresOf(run).filter((text) => text.startsWith("fax-down"));
        expect(failure).toMatch(
          /the service answered POST \/v1\/status-pages\/incidents with 404, so nothing was opened\. The account has no service "svc-retired" \(it lists \d+ services\): fix "services:"/,
        );
        expect(failure).not.toContain("does not offer the operations");
        expect(control().stats().byOperation.listServices?.total).toBeGreaterThan(0);
      } finally {
        vi.unstubAllGlobals();
        writeFileSync(catalog, services);
        rmSync(file("fax-down"));
      }
    });

    it("says a service without the operations that open incidents cannot open one, and opens nothing", async () => {
      writeFileSync(file("mail-down"), newIncident("mail-down", "svc-web"));
      control().setBehaviour({ referenceOperations: "method-not-allowed" });
      control().resetStats();
      try {
        const run = await up();
        expect(failuresOf(run)).toContainEqual(
          expect.stringMatching(
            /^mail-down: The service answered GET \/v1\/status-pages\/incidents\?limit=100 with 405: it does not offer the operations that open incidents and post updates \(the public reference's, beyond the spec\)\. Nothing was sent\. Open the incident on the status page, put its id in the definition, and declare its status with "status:" instead of "updates:"\.$/,
          ),
        );
        expect(control().stats().byOperation.createIncident).toBeUndefined();
      } finally {
        control().setBehaviour({ referenceOperations: "available" });
        rmSync(file("mail-down"));
      }
    });
  },
);
