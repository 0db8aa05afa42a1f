import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SCALE_ACCOUNT,
  SCALE_API_KEY,
  writeScaleProject,
} from "../../bench/support/scale-project.mjs";
import { CLI, pipelineEnv, runCli, upArgs } from "../cli/run-cli";
import { type EmulatorSandbox, startEmulatorSandbox } from "../engine/support/emulator-sandbox";
import { eventually, killRun } from "../engine/support/processes";
import { sized } from "./size";

const timeout = 1_800_000;
const ROUNDS = sized({ full: 10, smallest: 2 });
/** When after the write leaves the whole tree is killed. */
const KILL_AFTER_MS = 300;

/** A new incident of two updates, both notifying subscribers. */
const definition = (resource: string) => `resource: ${resource}
name: ${resource} fails
severity: MAJOR
services: [svc-scale-a]
updates:
  - status: INVESTIGATING
    message: We are looking into ${resource}.
    notify: true
  - status: IDENTIFIED
    message: We found why ${resource} fails.
    notify: true
`;

/**
 * Issue 54, on the real engine: a create or a post held on its way to the service, the whole
 * `incident-sync up` tree killed with kill -9 0.3 s after the write leaves, and `up` run again
 * at once. Between the engine and the emulator, a relay holds the write until that rerun has
 * ended, then carries it out: the service makes it after the next run has read, however slow
 * the machine. The rerun sends no such write again; ten rounds of each end (after one more
 * `up`) with one incident, each update once, each notification once.
 */
describe("kill -9 while a create or a post is held, then up again at once", () => {
  let sandbox: EmulatorSandbox;
  let relay: Server;
  let relayUrl: string;
  let project: string;
  let state: string;
  /** When the relay last saw a create or a post leave, and how many of each it saw. */
  let leftAt: { create?: number; post?: number } = {};
  let seen = { create: 0, post: 0 };
  /** The kind of write the relay holds back, and the writes it holds until `landAll`. */
  let holding: "create" | "post" | undefined;
  let held: (() => void)[] = [];
  const landAll = () => {
    holding = undefined;
    for (const land of held) land();
    held = [];
  };

  const args = () =>
    upArgs({ project, stack: "held", state, apiUrl: relayUrl, accountId: SCALE_ACCOUNT });
  const env = () => pipelineEnv(SCALE_API_KEY, "intent-kills");
  const start = (): ChildProcess =>
    spawn(process.execPath, [CLI, ...args()], {
      cwd: project,
      env: { PATH: process.env.PATH, ...env() },
      stdio: "ignore",
    });
  /** What the account holds of one resource: its incidents, their updates, the notifications. */
  const heldOf = (resource: string) => {
    const ids = (
      sandbox.db
        .prepare("SELECT id FROM incidents WHERE account_id = ? AND name = ?")
        .all(SCALE_ACCOUNT, `${resource} fails`) as { id: string }[]
    ).map((row) => row.id);
    const count = (table: string) =>
      ids.reduce(
        (sum, id) =>
          sum +
          Number(
            (
              sandbox.db
                .prepare(
                  `SELECT COUNT(*) AS n FROM ${table} WHERE account_id = ? AND incident_id = ?`,
                )
                .get(SCALE_ACCOUNT, id) as { n: number }
            ).n,
          ),
        0,
      );
    return {
      incidents: ids.length,
      updates: count("incident_updates"),
      notifications: count("notifications"),
    };
  };

  /** One round: the write held, the tree killed after it leaves, `up` again at once, then until done. */
  async function round(kind: "create" | "post", resource: string) {
    writeFileSync(join(project, "incidents", "held.yaml"), definition(resource));
    leftAt = {};
    holding = kind;
    const run = start();
    const left = await eventually(
      () => leftAt[kind] !== undefined || run.exitCode !== null,
      120_000,
    );
    expect(left && leftAt[kind] !== undefined, `round ${resource}: the ${kind} left`).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, KILL_AFTER_MS));
    await killRun(run, project);
    // At once, the write still held: the rerun reads, does not find it, and sends it not again.
    seen = { create: 0, post: 0 };
    const rerun = await runCli(args(), project, env());
    expect(seen[kind], `round ${resource}: ${kind}s the rerun sent`).toBe(0);
    expect(rerun.exitCode, `round ${resource}: ${rerun.stdout}`).not.toBe(0);
    // The held write lands; then an up completes what is left, once.
    landAll();
    const landed = await eventually(
      () => heldOf(resource).updates >= (kind === "create" ? 1 : 2),
      60_000,
    );
    expect(landed, `round ${resource}: the held ${kind} landed`).toBe(true);
    const last = await runCli(args(), project, env());
    expect(last.exitCode, last.stdout + last.stderr).toBe(0);
    expect(heldOf(resource), `round ${resource}`).toEqual({
      incidents: 1,
      updates: 2,
      notifications: 2,
    });
  }

  beforeAll(async () => {
    sandbox = await startEmulatorSandbox("intent-kills", {
      accounts: [
        {
          id: SCALE_ACCOUNT,
          apiKeys: [SCALE_API_KEY],
          services: [{ id: "svc-scale-a", name: "Scale A" }],
        },
      ],
    });
    // A relay that notes each write as it leaves, holds back those of the kind `holding` names
    // until `landAll`, and carries each to the service whole, whether its client is there or not.
    relay = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const path = request.url ?? "/";
        const creates = path === "/v1/status-pages/incidents";
        const posts = path.endsWith("/incident-updates");
        const write =
          request.method !== "POST" ? undefined : creates ? "create" : posts ? "post" : undefined;
        if (write !== undefined) {
          leftAt[write] = Date.now();
          seen[write] += 1;
        }
        const headers = Object.fromEntries(
          Object.entries(request.headers).flatMap(([name, value]) =>
            typeof value === "string" && name !== "host" && name !== "connection"
              ? [[name, value]]
              : [],
          ),
        );
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        const carry = () =>
          fetch(`${sandbox.emulator.url}${path}`, {
            method: request.method ?? "GET",
            headers,
            ...(body ? { body } : {}),
          });
        const answered =
          write !== undefined && write === holding
            ? new Promise<void>((resolve) => held.push(resolve)).then(carry)
            : carry();
        answered.then(
          async (answer) => {
            const text = Buffer.from(await answer.arrayBuffer());
            const kept = ["content-type", "retry-after"].flatMap((name) => {
              const value = answer.headers.get(name);
              return value === null ? [] : [[name, value] as const];
            });
            response.writeHead(answer.status, Object.fromEntries(kept));
            response.end(text);
          },
          () => response.destroy(),
        );
      });
    });
    await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
    relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
    state = join(sandbox.root, "state");
    mkdirSync(state);
    project = writeScaleProject(join(sandbox.root, "project"));
    writeFileSync(join(project, "incidents", "services.yaml"), "svc-scale-a: Scale A\n");
  }, timeout);

  afterAll(async () => {
    await new Promise((resolve) => relay?.close(resolve));
    await sandbox?.close();
  });

  it.each(["create", "post"] as const)(
    `sends a held %s once, each update and notification once, through ${ROUNDS} kills and immediate reruns`,
    async (kind) => {
      const began = Date.now();
      for (let index = 0; index < ROUNDS; index += 1) await round(kind, `held-${kind}-${index}`);
      console.log(`issue 54 held ${kind}, ${ROUNDS} rounds: ${Date.now() - began} ms`);
    },
    timeout,
  );
});
