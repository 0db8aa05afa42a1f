import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import program from "../../index";
import { createClient } from "../../src/api";
import { CLAIM_PHASE_VARIABLE } from "../../src/incident";
import { configKey } from "../../src/settings";
import { type EmulatorSandbox, startEmulatorSandbox } from "../engine/support/emulator-sandbox";
import { failuresOf, MockEngine } from "./support/mock-engine";
import { UNTHROTTLED } from "./support/program-stack";
import { setProjectDirectory } from "./support/project-directory";

/** A new incident of two entries, both notifying subscribers. */
function definition(resource: string, name: string): string {
  return [
    `resource: ${resource}`,
    `name: ${name}`,
    "severity: MAJOR",
    "services: [svc-api]",
    "updates:",
    "  - status: INVESTIGATING",
    `    message: ${name}, we are looking into it.`,
    "    notify: true",
    "  - status: IDENTIFIED",
    `    message: ${name}, we found why.`,
    "    notify: true",
    "",
  ].join("\n");
}

/**
 * The built provider (dist) in a process of its own, applying one new incident: the holder a
 * test kills with kill -9. It says on stdout when its create leaves.
 */
const HOLDER = `
  const real = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const request = new Request(input, init);
    if (request.method === "POST" && new URL(request.url).pathname === "/v1/status-pages/incidents") {
      process.stdout.write("create sent\\n");
    }
    return real(request);
  };
  const operations = require(${JSON.stringify(join(process.cwd(), "dist/providers/incident-operations"))});
  const config = JSON.parse(process.argv[1]);
  const provider = operations.provider();
  provider
    .configure({ config: { get: (key) => config[key] } })
    .then(() => provider.create(JSON.parse(process.argv[2])));`;

/**
 * Issue 54: a kill -9 while a create is in flight, then an immediate rerun, must not open the
 * incident again; and a holder of the opening's lease that made the incident is trusted over
 * a list that does not show it yet. Played over HTTP against the emulator, the rerun under
 * Pulumi's mocks (test/reliability/intent-kills.test.ts plays the kills on the real engine).
 */
describe("the lease's record of a write in flight, and of what was made", () => {
  let sandbox: EmulatorSandbox;
  let project: string;
  let config: Record<string, string>;
  const control = () => sandbox.emulator.emulator.control;
  const account = () => sandbox.emulator.demo.accountId;
  const api = () =>
    createClient({
      baseUrl: sandbox.emulator.url,
      accountId: account(),
      apiKey: sandbox.emulator.demo.apiKey,
    });
  const file = (resource: string) => join(project, "incidents", `${resource}.yaml`);
  const named = async (name: string) => {
    const page = await api().incidents.listPage({ limit: 100 });
    return page.entries.filter((incident) => incident.name === name);
  };
  const notified = (incidentId: string) =>
    control()
      .notifications(account())
      .filter((notification) => notification.incidentId === incidentId)
      .map((notification) => notification.description)
      .sort();
  /** `incident-sync up`: the claim run, then the apply run. */
  const up = async (engine: MockEngine) => {
    vi.stubEnv(CLAIM_PHASE_VARIABLE, "claim");
    const claim = await engine.run(program);
    vi.stubEnv(CLAIM_PHASE_VARIABLE, "apply");
    return claim.error === undefined ? engine.run(program) : claim;
  };

  beforeAll(async () => {
    sandbox = await startEmulatorSandbox("intent-takeover", "demo");
    project = mkdtempSync(join(tmpdir(), "incident-sync-intent-takeover-"));
    mkdirSync(join(project, "incidents"));
    writeFileSync(join(project, "Pulumi.yaml"), "name: incident-sync\nruntime: nodejs\n");
    writeFileSync(join(project, "incidents", "services.yaml"), "svc-api: Public API\n");
    setProjectDirectory(project);
    config = {
      [configKey("baseUrl")]: sandbox.emulator.url,
      [configKey("accountId")]: account(),
      [configKey("apiKey")]: sandbox.emulator.demo.apiKey,
      ...UNTHROTTLED,
    };
  });

  afterEach(() => {
    vi.unstubAllEnvs();
    vi.unstubAllGlobals();
    control().setBehaviour({ createDelayMs: 0 });
  });

  afterAll(async () => {
    await sandbox?.close();
    rmSync(project, { recursive: true, force: true });
  });

  it("sends nothing after taking over the lease of a holder killed with its create in flight, until a read shows the incident", async () => {
    const resource = "held-create";
    const name = "Held create";
    writeFileSync(file(resource), definition(resource, name));
    const engine = new MockEngine(config);
    vi.stubEnv(CLAIM_PHASE_VARIABLE, "claim");
    expect((await engine.run(program)).error).toBeUndefined();
    vi.unstubAllEnvs();
    const { claimOnly: _claim, ...inputs } = engine.snapshot().get(resource)?.inputs ?? {};
    // The service holds the create 4 s; its holder is killed 0.3 s after it leaves.
    control().setBehaviour({ createDelayMs: 4_000 });
    const holder = spawn(
      process.execPath,
      ["-e", HOLDER, JSON.stringify(config), JSON.stringify(inputs)],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    const exited = new Promise((resolve) => holder.on("exit", resolve));
    await new Promise<void>((resolve) => {
      holder.stdout.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("create sent")) resolve();
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    holder.kill("SIGKILL");
    await exited;
    control().setBehaviour({ createDelayMs: 0 });
    // Run again at once: the create is still held, and nothing is sent again.
    const rerun = await up(engine);
    expect(failuresOf(rerun)).toEqual([
      expect.stringMatching(
        /^held-create: \(new: held-create\): not opened: the request that opens it, sent at \S+, got no answer, and the service does not show it yet\. No create is sent again until the service shows it or until \S+; run again then\.$/,
      ),
    ]);
    expect(await named(name)).toEqual([]);
    // The held create lands; the next run takes it and posts the rest, once.
    for (let wait = 0; wait < 100 && (await named(name)).length === 0; wait += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await up(engine)).error).toBeUndefined();
    const [opened, ...more] = await named(name);
    expect(more).toEqual([]);
    expect(engine.stateOf(resource)).toMatchObject({ incidentId: opened?.id });
    expect(notified(opened?.id ?? "")).toEqual([
      `${name}, we are looking into it.`,
      `${name}, we found why.`,
    ]);
  });

  it("takes the incident another stack's holder recorded opening, where the list does not show it yet", async () => {
    const resource = "lagging-list";
    const name = "Lagging list";
    writeFileSync(file(resource), definition(resource, name));
    const [blue, green] = [new MockEngine(config), new MockEngine(config)];
    expect((await up(blue)).error).toBeUndefined();
    const [opened] = await named(name);
    // A list that omits what was made in the last 20 s; a read of the incident shows it.
    const real = globalThis.fetch;
    vi.stubGlobal("fetch", async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      const request = new Request(input, init);
      const answer = await real(request);
      if (
        request.method !== "GET" ||
        new URL(request.url).pathname !== "/v1/status-pages/incidents"
      ) {
        return answer;
      }
      const page = (await answer.json()) as { entries: { name: string }[] };
      const entries = page.entries.filter((incident) => incident.name !== name);
      return Response.json({ ...page, length: entries.length, entries }, { status: answer.status });
    });
    control().resetStats();
    expect((await up(green)).error).toBeUndefined();
    vi.unstubAllGlobals();
    expect(control().stats().byOperation.createIncident).toBeUndefined();
    expect(green.stateOf(resource)).toMatchObject({ incidentId: opened?.id });
    expect(await named(name)).toHaveLength(1);
    expect(notified(opened?.id ?? "")).toHaveLength(2);
  });
});
