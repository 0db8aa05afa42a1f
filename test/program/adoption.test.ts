import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import program from "../../index";
import type { SeedFile } from "../../src/emulator";
import { configKey } from "../../src/settings";
import { type EmulatorSandbox, startEmulatorSandbox } from "../engine/support/emulator-sandbox";
import { MockEngine } from "./support/mock-engine";
import { UNTHROTTLED } from "./support/program-stack";
import { setProjectDirectory } from "./support/project-directory";

const ACCOUNT = "acct-adopt";
const KEY = "adopt-key-0123456789";
/** Incidents of each kind: enough that the list's pages cost at most 0.05 requests each. */
const N = 40;
const WRITES = [
  "createIncident",
  "updateIncident",
  "deleteIncident",
  "postIncidentUpdate",
  "updateIncidentUpdate",
  "deleteIncidentUpdate",
];

const pad = (index: number) => String(index).padStart(2, "0");
const at = (minutes: number) => new Date(Date.UTC(2026, 10, 2, 8, minutes)).toISOString();

/** An account whose status page shows N incidents told by updates, and N set by status. */
function seed(): SeedFile {
  const told = Array.from({ length: N }, (_, index) => ({
    id: `inc-told-${pad(index)}`,
    name: `Checkout fails ${index}`,
    severity: "MAJOR" as const,
    services: ["svc-api"],
    updates: [
      {
        description: `We are looking into ${index}.`,
        status: "INVESTIGATING" as const,
        created_at: at(index),
      },
      {
        description: `Found the cause of ${index}:\n\n- a deploy`,
        status: "IDENTIFIED" as const,
        created_at: at(index + 1),
      },
    ],
  }));
  const set = Array.from({ length: N }, (_, index) => ({
    id: `inc-set-${pad(index)}`,
    name: `Cache slow ${index}`,
    severity: "MINOR" as const,
    services: ["svc-api", "svc-web"],
    updates: [
      { description: `Watching ${index}.`, status: "MONITORING" as const, created_at: at(index) },
    ],
  }));
  return {
    accounts: [
      {
        id: ACCOUNT,
        apiKeys: [KEY],
        services: [
          { id: "svc-api", name: "Public API" },
          { id: "svc-web", name: "Web app" },
        ],
        incidents: [...told, ...set],
      },
    ],
  };
}

const told = (index: number) =>
  [
    `id: inc-told-${pad(index)}`,
    `name: Checkout fails ${index}`,
    "severity: MAJOR",
    "services: [svc-api]",
    "updates:",
    "  - status: INVESTIGATING",
    `    message: We are looking into ${index}.`,
    "  - status: IDENTIFIED",
    "    message: |-",
    `      Found the cause of ${index}:`,
    "",
    "      - a deploy",
    "",
  ].join("\n");

const set = (index: number) =>
  [
    `id: inc-set-${pad(index)}`,
    `name: Cache slow ${index}`,
    "severity: MINOR",
    "status: MONITORING",
    "services: [svc-web, svc-api]",
    "",
  ].join("\n");

/**
 * The first `up` after the status page was brought into git: every incident adopted as the
 * service shows it, over HTTP against the emulator under Pulumi's mocks, counting what reached it.
 */
describe("adopting incidents the service shows as declared", () => {
  let sandbox: EmulatorSandbox;
  let project: string;
  const control = () => sandbox.emulator.emulator.control;

  beforeAll(async () => {
    sandbox = await startEmulatorSandbox("adoption", seed());
    project = mkdtempSync(join(tmpdir(), "incident-sync-adoption-"));
    mkdirSync(join(project, "incidents"));
    writeFileSync(join(project, "Pulumi.yaml"), "name: incident-sync\nruntime: nodejs\n");
    writeFileSync(
      join(project, "incidents", "services.yaml"),
      "svc-api: Public API\nsvc-web: Web app\n",
    );
    setProjectDirectory(project);
  });

  afterAll(async () => {
    await sandbox?.close();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  const engine = () =>
    new MockEngine({
      [configKey("baseUrl")]: sandbox.emulator.url,
      [configKey("accountId")]: ACCOUNT,
      [configKey("apiKey")]: KEY,
      ...UNTHROTTLED,
    });

  it.each([
    ["with `updates`", told],
    ["without `updates`", set],
  ] as const)(
    "adopts %s with no write and no read of each incident, then has nothing to do",
    async (_kind, definition) => {
      for (const index of Array.from({ length: N }, (_, i) => i)) {
        writeFileSync(join(project, "incidents", `adopted-${pad(index)}.yaml`), definition(index));
      }
      const stack = engine();
      control().resetStats();
      const first = await stack.run(program);
      expect(first.error).toBeUndefined();
      expect(first.steps.filter((step) => step.op === "create")).toHaveLength(N);
      const { total, byOperation } = control().stats();
      for (const operation of WRITES) expect(byOperation[operation], operation).toBeUndefined();
      expect(byOperation.getIncident).toBeUndefined();
      expect(byOperation.listIncidentUpdates).toBeUndefined();
      // The program's list and the provider's, a page each: at most 0.05 requests an incident.
      expect(total / N).toBeLessThanOrEqual(0.05);
      expect(control().notifications(ACCOUNT)).toEqual([]);

      control().resetStats();
      const second = await stack.run(program);
      expect(second.error).toBeUndefined();
      expect(second.steps.every((step) => step.op === "same")).toBe(true);
      const again = control().stats().byOperation;
      for (const operation of WRITES) expect(again[operation], operation).toBeUndefined();
      rmSync(join(project, "incidents"), { recursive: true });
      mkdirSync(join(project, "incidents"));
      writeFileSync(
        join(project, "incidents", "services.yaml"),
        "svc-api: Public API\nsvc-web: Web app\n",
      );
    },
  );
});
