import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IncidentInputs, IncidentProvider, IncidentState } from "../../providers/incident";
import { createClient } from "../../src/api";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { liveStatusOf, observe } from "../../src/incident";

// The provider as the engine's plugin gets it: the text every incident's state stores,
// compiled by the module the plugin compiles it with, as a module with no file name; it loads
// the operations by package name from the working directory, here this repository.
const { PROVIDER_SOURCE } = require(
  join(__dirname, "..", "..", "dist", "providers", "incident.js"),
) as typeof import("../../providers/incident");
const requireFromString = createRequire(require.resolve("@pulumi/pulumi"))(
  "require-from-string",
) as (code: string) => { handler: () => IncidentProvider };
const incidentProvider = requireFromString(PROVIDER_SOURCE).handler();

// The operations module the provider loads (the same file, so the same module instance).
const operations = require(
  join(__dirname, "..", "..", "dist", "providers", "incident-operations.js"),
) as typeof import("../../providers/incident-operations");

const inputs: IncidentInputs = {
  incidentId: "inc-api-errors",
  name: "Elevated error rate on the public API",
  severity: "MAJOR",
  status: "MONITORING",
  services: [{ id: "svc-api", name: "Public API" }],
  onRemove: "release",
  providerVersion: "0.2.0",
};

/** The state of `inputs` once applied. */
const applied: IncidentState = {
  ...inputs,
  incidentId: "inc-api-errors",
  appliedAt: "2026-11-01T00:00:00.000Z",
  live: { status: "MONITORING", at: "2026-11-01T00:00:00.000Z", source: "applied" },
  appliedUpdates: [],
};

const resolvedOnThePage = observe([
  {
    id: "upd-9",
    description: "Fixed by the CDN change",
    status: "RESOLVED",
    publicIncidentUpdateDate: "2026-11-02T10:00:00.000Z",
    notifySubscribers: false,
  },
]);

describe("the incident provider's check and diff", () => {
  it("returns each invalid input as a property and a reason", async () => {
    const result = await incidentProvider.check?.(
      {} as IncidentInputs,
      {
        ...inputs,
        severity: "HUGE",
        services: [],
        incidentId: "",
      } as never,
    );
    expect(result?.failures?.map((failure) => failure.property)).toEqual([
      "incidentId",
      "severity",
      "services",
    ]);
  });

  it("accepts valid inputs and normalizes the defaults", async () => {
    const { onRemove: _default, ...rest } = inputs;
    const result = await incidentProvider.check?.({} as IncidentInputs, rest as never);
    expect(result).toEqual({ inputs });
  });

  it("refuses to reopen a resolved incident unless the definition says reopen", async () => {
    const resolved = { ...inputs, status: "RESOLVED" as const };
    const reopened = { ...inputs, status: "MONITORING" as const };
    const refused = await incidentProvider.check?.(resolved, reopened);
    expect(refused?.failures).toMatchInlineSnapshot(`
      [
        {
          "property": "status",
          "reason": "incident inc-api-errors: status goes from RESOLVED back to MONITORING; add "reopen: true" to reopen a resolved incident on purpose.",
        },
      ]
    `);
    const allowed = await incidentProvider.check?.(resolved, { ...reopened, reopen: true });
    expect(allowed?.failures).toBeUndefined();
  });

  it("names an incident that does not exist", async () => {
    const missing = await incidentProvider.check?.({} as IncidentInputs, {
      ...inputs,
      observed: { kind: "missing" },
    });
    expect(missing?.failures).toEqual([
      {
        property: "incidentId",
        reason:
          'Incident "inc-api-errors" does not exist. Fix the id in its definition, or leave "id" out (with "resource" and "updates") to open a new incident.',
      },
    ]);
  });

  it("reports a change without any network call, and none when only the provider's outputs differ", async () => {
    const changed = await incidentProvider.diff?.("inc-api-errors", applied, {
      ...inputs,
      name: "Errors on the public API",
    });
    expect(changed).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    expect((await incidentProvider.diff?.("inc-api-errors", applied, inputs))?.changes).toBe(false);
  });

  it("replaces the resource, deleting first, when the incident id changes", async () => {
    const result = await incidentProvider.diff?.("inc-api-errors", applied, {
      ...inputs,
      incidentId: "inc-api-errors-2",
    });
    expect(result).toEqual({ changes: true, replaces: ["incidentId"], deleteBeforeReplace: true });
  });

  it("applies a new provider release as an update, so the state records the new provider", async () => {
    const result = await incidentProvider.diff?.("inc-api-errors", applied, {
      ...inputs,
      providerVersion: "0.3.0",
    });
    expect(result?.changes).toBe(true);
  });

  it("reports an incident resolved on the status page that git still declares open as a change, which the update step then refuses", async () => {
    const result = await incidentProvider.diff?.("inc-api-errors", applied, {
      ...inputs,
      observed: resolvedOnThePage,
    });
    expect(result?.changes).toBe(true);
  });

  it("applies state written by incident-sync 0.1 (createdAt, no live status) as an update, so it stores the current provider", async () => {
    const legacy = {
      ...inputs,
      providerVersion: "0.1.0",
      appliedAt: "2026-11-01T00:00:00.000Z",
      createdAt: null,
    } as unknown as IncidentState;
    expect((await incidentProvider.diff?.("inc-api-errors", legacy, inputs))?.changes).toBe(true);
  });
});

/**
 * The demo emulator, with `provider` (the current one by default) configured for it as the
 * engine's `configure` does; the provider object is the plugin's session, left afterwards as
 * the other tests found it.
 */
function providerAgainstDemo(provider: IncidentProvider = incidentProvider): () => RunningEmulator {
  let emulator: RunningEmulator;
  const session = provider as IncidentProvider & Record<string, unknown>;

  beforeAll(async () => {
    // A new run of the engine: what earlier tests' checks declared is forgotten.
    provider.run = operations.createRunSession();
    emulator = await startEmulator({ port: 0, seed: "demo" });
    const config: Record<string, string> = {
      "incident-sync:baseUrl": emulator.url,
      "incident-sync:accountId": emulator.demo.accountId,
      "incident-sync:apiKey": emulator.demo.apiKey,
    };
    await provider.configure?.({ config: { get: (key: string) => config[key] } } as never);
  });

  afterAll(async () => {
    for (const key of ["settings", "apiKey", "api"]) delete session[key];
    await emulator?.close();
  });
  return () => emulator;
}

describe("the incident provider's delete", () => {
  const demo = providerAgainstDemo();

  it("says how to let go of an incident that onRemove: resolve cannot resolve because it is gone", async () => {
    const gone = { ...applied, incidentId: "inc-gone", onRemove: "resolve" as const };
    await expect(incidentProvider.delete?.("inc-gone", gone)).rejects.toThrow(
      `Incident "inc-gone" does not exist in account "${demo().demo.accountId}", so its onRemove: resolve cannot resolve it. If the incident is gone for good, remove the resource from the state with \`pulumi state delete <urn>\``,
    );
  });

  it("releases, whatever onRemove says, an incident that another resource of the run declares (a rename without aliases)", async () => {
    const api = createClient({ baseUrl: demo().url, apiKey: demo().demo.apiKey });
    const statusOf = async () =>
      liveStatusOf(await api.incidents.listUpdates("inc-checkout-latency")).status;
    const puts = () => demo().emulator.control.stats().byOperation.updateIncident?.total ?? 0;
    const old = { ...applied, incidentId: "inc-checkout-latency", onRemove: "resolve" as const };
    const before = { puts: puts(), status: await statusOf() };
    expect(before.status).not.toBe("RESOLVED");
    // The program registers the new resource: its check comes before the engine's deletes.
    const checked = await incidentProvider.check?.(
      {} as IncidentInputs,
      {
        ...inputs,
        incidentId: "inc-checkout-latency",
        onRemove: "resolve",
      } as never,
    );
    expect(checked?.failures).toBeUndefined();
    await expect(operations.remove(incidentProvider, old)).resolves.toBe("released-redeclared");
    expect({ puts: puts(), status: await statusOf() }).toEqual(before);
    // A later run of the engine that does not declare it (pulumi destroy) resolves it.
    incidentProvider.run = operations.createRunSession();
    await expect(operations.remove(incidentProvider, old)).resolves.toBe("resolved");
    expect(await statusOf()).toBe("RESOLVED");
  });

  it("releases an incident without a request, so a missing one is no obstacle", async () => {
    const released = { ...applied, incidentId: "inc-gone" };
    await expect(incidentProvider.delete?.("inc-gone", released)).resolves.toBeUndefined();
  });
});

describe("the incident provider's claims (what incident-sync up records before it applies)", () => {
  const demo = providerAgainstDemo();
  const puts = () => demo().emulator.control.stats().byOperation.updateIncident?.total ?? 0;
  const statusOf = async (incidentId: string) => {
    const api = createClient({ baseUrl: demo().url, apiKey: demo().demo.apiKey });
    return liveStatusOf(await api.incidents.listUpdates(incidentId)).status;
  };

  it("records a claimed incident without a PUT, and the next update adopts it", async () => {
    const before = puts();
    const claimed = await incidentProvider.create?.({ ...inputs, claimOnly: true });
    expect(puts()).toBe(before);
    expect(claimed?.outs).toMatchObject({ claimed: true, appliedAt: "", status: "MONITORING" });
    expect(claimed?.outs).not.toHaveProperty("claimOnly");
    const outs = claimed?.outs as IncidentState;
    expect(await incidentProvider.diff?.("inc-api-errors", outs, inputs)).toMatchObject({
      changes: true,
    });
    const adopted = await incidentProvider.update?.("inc-api-errors", outs, inputs);
    expect(puts()).toBeGreaterThan(before);
    expect(adopted?.outs).not.toHaveProperty("claimed");
    expect(adopted?.outs?.live.status).toBe("MONITORING");
  });

  it("does not claim an incident that does not exist, and says so as an adoption would", async () => {
    await expect(
      incidentProvider.create?.({ ...inputs, incidentId: "inc-gone", claimOnly: true }),
    ).rejects.toThrow(`Incident "inc-gone" does not exist in account "${demo().demo.accountId}"`);
  });

  it("leaves an incident already in the state as it is during a claim", async () => {
    expect(
      await incidentProvider.diff?.("inc-api-errors", applied, { ...inputs, claimOnly: true }),
    ).toMatchObject({ changes: false, replaces: [] });
  });

  it("resolves a claimed incident whose definition is removed with onRemove: resolve, as the killed run may have adopted it", async () => {
    const claimed = {
      ...applied,
      incidentId: "inc-checkout-latency",
      onRemove: "resolve" as const,
      appliedAt: "",
      claimed: true as const,
    };
    expect(await statusOf("inc-checkout-latency")).not.toBe("RESOLVED");
    await incidentProvider.delete?.("inc-checkout-latency", claimed);
    expect(await statusOf("inc-checkout-latency")).toBe("RESOLVED");
  });

  it("lets go of a claimed incident that does not exist, since nobody adopted it", async () => {
    const before = puts();
    const claimed = {
      ...applied,
      incidentId: "inc-gone",
      onRemove: "resolve" as const,
      claimed: true as const,
    };
    await expect(incidentProvider.delete?.("inc-gone", claimed)).resolves.toBeUndefined();
    expect(puts()).toBe(before);
  });
});

describe("a provider stored by incident-sync 0.2.0 (serialized by the SDK), in state written before", () => {
  // Until an incident is next updated, its state keeps the provider its last apply stored, and
  // the engine runs that one for refresh and delete: it must find the current operations.
  const stored = readFileSync(join(__dirname, "fixtures", "stored-provider-0.2.0.txt"), "utf8");
  const old = requireFromString(stored).handler();
  const demo = providerAgainstDemo(old);

  it("is the SDK's closure of seven methods, not the text this release stores", () => {
    expect(stored).toContain("with({ operations: __f2");
    expect(stored).not.toBe(PROVIDER_SOURCE);
  });

  it("checks, adopts, reads, and resolves on delete with the current operations", async () => {
    const checked = await old.check?.({} as IncidentInputs, inputs as never);
    expect(checked?.failures).toBeUndefined();
    const created = await old.create?.(checked?.inputs as IncidentInputs);
    expect(created?.outs).toMatchObject({ incidentId: "inc-api-errors", status: "MONITORING" });
    const outs = created?.outs as IncidentState;
    expect((await old.diff?.("inc-api-errors", outs, inputs))?.changes).toBe(false);
    const read = await old.read?.("inc-api-errors", outs);
    expect(read?.props?.live.status).toBe("MONITORING");
    old.run = operations.createRunSession();
    await old.delete?.("inc-api-errors", { ...outs, onRemove: "resolve" });
    const api = createClient({ baseUrl: demo().url, apiKey: demo().demo.apiKey });
    expect(liveStatusOf(await api.incidents.listUpdates("inc-api-errors")).status).toBe("RESOLVED");
  });
});

describe("a service whose PUT ignores the status", () => {
  let emulator: RunningEmulator;
  const config = () =>
    ({
      config: {
        get: (key: string) =>
          ({
            "incident-sync:baseUrl": emulator.url,
            "incident-sync:accountId": emulator.demo.accountId,
            "incident-sync:apiKey": emulator.demo.apiKey,
          })[key],
      },
    }) as never;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, seed: "demo", putStatus: "ignores" });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("fails the update of a status that did not take, by the current provider and by 0.1's stored one alike", async () => {
    const current = operations.provider();
    await current.configure?.(config());
    const legacy = require(
      join(__dirname, "..", "..", "dist", "providers", "legacy-operations.js"),
    ) as typeof import("../../providers/legacy-operations");
    const session: Parameters<typeof legacy.configure>[0] = {};
    await legacy.configure(session, config());
    const resolved = { ...inputs, status: "RESOLVED" as const };
    for (const update of [
      () => current.update?.("inc-api-errors", applied, resolved),
      () => legacy.update(session, resolved),
    ]) {
      const failure = await Promise.resolve()
        .then(update)
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).toContain(
        'the service answered the PUT with status "MONITORING", not what was sent (status RESOLVED): it did not take the change',
      );
    }
  });
  it("resolves a removed incident with one update when its PUT did not take RESOLVED", async () => {
    // A run of its own: the incident this file's other runs declared is not redeclared in it.
    const current = operations.provider(operations.createRunSession());
    await current.configure?.(config());
    const control = emulator.emulator.control;
    control.resetStats();
    await current.delete?.("inc-api-errors", { ...applied, onRemove: "resolve" });
    const api = createClient({ baseUrl: emulator.url, apiKey: emulator.demo.apiKey });
    expect(liveStatusOf(await api.incidents.listUpdates("inc-api-errors")).status).toBe("RESOLVED");
    expect(control.stats().byOperation.postIncidentUpdate?.total).toBe(1);
  });
});
