import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/api";
import type { RunningEmulator } from "../../src/emulator";
import { resolveEngine } from "../../src/engine";
import { copyCheckout, reuseBuild } from "../engine/support/checkout";
import { incidentRows } from "../engine/support/emulator-rows";
import { type EmulatorSandbox, startEmulatorSandbox } from "../engine/support/emulator-sandbox";
import { plainCliEnv } from "../engine/support/plain-cli-env";
import { eventually } from "../engine/support/processes";
import { type ShellResult, sh, shAll } from "../engine/support/shell";

const timeout = 300_000;

/** A new incident of two entries, both notifying subscribers, declared by `stacks`. */
const definition = (resource: string, stacks: string, extra = "") => `resource: ${resource}
name: ${resource} is failing
severity: MAJOR
services: [svc-api]
stacks: [${stacks}]
updates:
  - status: INVESTIGATING
    message: We are looking into failures of ${resource}.
    notify: true
  - status: IDENTIFIED
    message: We found why ${resource} fails.
    notify: true
${extra}`;

/**
 * The faults of issue 43 only the real engine can show, through the plain CLI: two stacks that
 * declare the same new incidents, run at once against one account with a slow create; and a
 * create the service carries out after the client's timeout, which the engine records as a
 * partial failure (create sent, outcome unknown) that `refresh`, the next `up` and a delete
 * work from. Each ends with one incident per definition and one notification per entry.
 */
describe("never twice, on the real engine", () => {
  let sandbox: EmulatorSandbox;
  let emulator: RunningEmulator;
  let checkout: string;
  let env: Record<string, string>;
  const run = (line: string) => sh(line, checkout, env);
  const up = (stack: string): Promise<ShellResult> =>
    run(`pulumi up --yes --skip-preview --suppress-outputs --stack ${stack}`);
  const write = (file: string, text: string) =>
    writeFileSync(join(checkout, "incidents", file), text);
  const api = () =>
    createClient({
      baseUrl: emulator.url,
      accountId: emulator.demo.accountId,
      apiKey: emulator.demo.apiKey,
    });
  /** The account's incidents of these resources, through the public API. */
  const opened = async (...resources: string[]) => {
    const names = new Set(resources.map((resource) => `${resource} is failing`));
    const page = await api().incidents.listPage({ limit: 100 });
    return page.entries.filter((incident) => names.has(incident.name));
  };
  /** What reached the subscribers, by the control API's record, per incident. */
  const notified = (incidentIds: readonly string[]) =>
    emulator.emulator.control
      .notifications(emulator.demo.accountId)
      .filter((notification) => incidentIds.includes(notification.incidentId)).length;
  /** An incident resource of a stack's state, by `pulumi stack export`. */
  const recorded = async (stack: string, resource: string) => {
    const exported = await run(`pulumi stack export --stack ${stack}`);
    expect(exported.code, exported.output).toBe(0);
    const { deployment } = JSON.parse(exported.output) as {
      deployment: { resources?: { urn: string; outputs?: Record<string, unknown> }[] };
    };
    return deployment.resources?.find((item) => item.urn.endsWith(`::${resource}`))?.outputs;
  };

  beforeAll(async () => {
    const engine = await resolveEngine();
    sandbox = await startEmulatorSandbox("never-twice", "demo");
    ({ emulator } = sandbox);
    checkout = copyCheckout(join(sandbox.root, "checkout"));
    reuseBuild(checkout);
    for (const file of readdirSync(join(checkout, "incidents"))) {
      if (file !== "services.yaml") rmSync(join(checkout, "incidents", file));
    }
    env = plainCliEnv(engine, join(sandbox.root, "home"), {
      PULUMI_CONFIG_PASSPHRASE: "never-twice-passphrase",
      MONITORING_API_URL: emulator.url,
      MONITORING_ACCOUNT_ID: emulator.demo.accountId,
      MONITORING_API_KEY: emulator.demo.apiKey,
    });
    await shAll(
      [
        'mkdir -p ~/.pulumi-state && pulumi login "file://$HOME/.pulumi-state"',
        ...["blue", "green", "slow"].flatMap((stack) => [
          `pulumi stack init ${stack}`,
          'pulumi config set incident-sync:baseUrl "$MONITORING_API_URL"',
          'pulumi config set incident-sync:accountId "$MONITORING_ACCOUNT_ID"',
          `printf '%s' "$MONITORING_API_KEY" | pulumi config set --secret incident-sync:apiKey`,
        ]),
      ],
      checkout,
      env,
    );
  }, timeout);

  afterAll(async () => {
    await sandbox?.close();
  });

  it(
    "opens each incident once when two stacks declare it and run at once with a slow create",
    async () => {
      const shared = ["orders-down", "search-down", "mail-down"];
      write(
        "shared.yaml",
        shared.map((resource) => definition(resource, "blue, green")).join("---\n"),
      );
      emulator.emulator.control.setBehaviour({ createDelayMs: 1_500 });
      const [blue, green] = await Promise.all([up("blue"), up("green")]);
      emulator.emulator.control.setBehaviour({ createDelayMs: 0 });
      expect(blue.code, blue.output).toBe(0);
      expect(green.code, green.output).toBe(0);
      const incidents = await opened(...shared);
      expect(incidents).toHaveLength(3);
      expect(notified(incidents.map((incident) => incident.id))).toBe(6);
      for (const resource of shared) {
        const [a, b] = await Promise.all([recorded("blue", resource), recorded("green", resource)]);
        expect(a?.incidentId).toBeDefined();
        expect(b?.incidentId).toBe(a?.incidentId);
        expect(b?.updateIds).toEqual(a?.updateIds);
      }
      expect((await up("green")).output).toContain("4 unchanged");
    },
    timeout,
  );

  it(
    "records a create that timed out, opens nothing more until the service shows it, and refresh, the next up and a delete work from that record",
    async () => {
      const slow = ["cdn-down", "dns-down"];
      write(
        "slow.yaml",
        slow.map((resource) => definition(resource, "slow", "onRemove: resolve\n")).join("---\n"),
      );
      // Held past the client's timeout (10 s), then made.
      emulator.emulator.control.setBehaviour({ createDelayMs: 11_000 });
      const first = await up("slow");
      expect(first.code).not.toBe(0);
      expect(first.output).toMatch(
        /\(new: cdn-down\): the service did not answer the request that opens it, sent at \S+Z, and does not show it opened\. No create is sent again until the service shows it or until \S+Z/,
      );
      // The engine kept what the provider recorded of the failed create.
      expect(await recorded("slow", "cdn-down")).toMatchObject({
        incidentId: "",
        claimed: true,
        unanswered: { entry: 0, at: expect.any(String) },
      });
      const refreshed = await run("pulumi refresh --yes --skip-preview --stack slow");
      expect(refreshed.code, refreshed.output).toBe(0);
      const made = () =>
        [...incidentRows(sandbox.db, emulator.demo.accountId).values()].filter((row) =>
          slow.some((resource) => row.name === `${resource} is failing`),
        ).length;
      expect(await eventually(() => made() === 2, 30_000)).toBe(true);
      emulator.emulator.control.setBehaviour({ createDelayMs: 0 });
      // One definition stays, and is taken and completed; the other is removed, and resolved.
      write("slow.yaml", definition("cdn-down", "slow", "onRemove: resolve\n"));
      const next = await up("slow");
      expect(next.code, next.output).toBe(0);
      const incidents = await opened(...slow);
      expect(incidents).toHaveLength(2);
      const cdn = incidents.find((incident) => incident.name === "cdn-down is failing");
      const dns = incidents.find((incident) => incident.name === "dns-down is failing");
      expect(await recorded("slow", "cdn-down")).toMatchObject({ incidentId: cdn?.id });
      expect((await api().incidents.get(dns?.id ?? "")).lastUpdateStatus).toBe("RESOLVED");
      // cdn-down: both entries; dns-down: its first, and a last one that notifies nobody.
      expect(notified(incidents.map((incident) => incident.id))).toBe(3);
    },
    timeout,
  );
});
