import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createClient, takeLease } from "../../src/api";
import { runCli, upArgs } from "../cli/run-cli";
import { API_KEY, errorGroup } from "../support/api-fixtures";
import { sendJson, startTestServer, type TestServer } from "../support/http-server";

/**
 * Issue 54: another local user must not be able to switch off the leases and the shared rate
 * budget by making the runtime folder first. A folder that is not this user's alone is an
 * error naming it and the fix, wherever it is found, and nothing is sent: never a limit or a
 * lease kept by one process alone instead.
 */

const me = process.getuid?.() ?? 0;
const other = me + 1234;
const saved = { runtime: process.env.XDG_RUNTIME_DIR, tmp: process.env.TMPDIR };
let shared: string;
let server: TestServer;
let requests: number;

beforeEach(async () => {
  // A shared temporary folder, as /tmp is, with no runtime folder of the user's own.
  shared = mkdtempSync(join(tmpdir(), "incident-sync-shared-tmp-"));
  chmodSync(shared, 0o1777);
  process.env.TMPDIR = shared;
  delete process.env.XDG_RUNTIME_DIR;
  requests = 0;
  server = await startTestServer((_request, response) => {
    requests += 1;
    sendJson(response, 200, errorGroup("eg_1", "2026-05-01T00:00:00.000Z"));
  });
});

afterEach(async () => {
  if (saved.tmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = saved.tmp;
  if (saved.runtime === undefined) delete process.env.XDG_RUNTIME_DIR;
  else process.env.XDG_RUNTIME_DIR = saved.runtime;
  await server.close();
  rmSync(shared, { recursive: true, force: true });
});

/** Why the first request of a client failed, with the temporary folder named `<tmp>`. */
async function refusal(): Promise<string> {
  try {
    await createClient({ baseUrl: server.url, apiKey: API_KEY }).errorGroups.get("eg_1");
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return message
      .replaceAll(shared, "<tmp>")
      .replaceAll(`incident-sync-${me}`, "incident-sync-<uid>")
      .replaceAll(`(owner ${other}, not ${me})`, "(owner <other>, not <uid>)");
  }
  throw new Error("the request was sent");
}

describe("the runtime folder is this user's alone, or nothing is sent", () => {
  test("a folder incident-sync-<uid> another user made first is refused, naming it and the fix", async () => {
    const planted = join(shared, `incident-sync-${me}`);
    mkdirSync(planted, { mode: 0o700 });
    chownSync(planted, other, other);
    expect(await refusal()).toMatchInlineSnapshot(
      `"incident-sync keeps its leases and the shared rate budget in a folder of this user alone, and <tmp>/incident-sync-<uid> is not this user's (owner <other>, not <uid>). Nothing is sent until it is: remove <tmp>/incident-sync-<uid> if it is yours (rm -r <tmp>/incident-sync-<uid>), or set XDG_RUNTIME_DIR to a folder of your own that no other user may enter (mode 700)."`,
    );
    expect(requests).toBe(0);
    await expect(
      takeLease({ baseUrl: server.url, accountId: "acct" }, "opening:x"),
    ).rejects.toThrow(`incident-sync-${me} is not this user's`);
  });

  test("a folder of this user that every user may change (mode 777) is refused as well", async () => {
    const planted = join(shared, `incident-sync-${me}`);
    mkdirSync(planted);
    chmodSync(planted, 0o777);
    expect(await refusal()).toContain(
      `<tmp>/incident-sync-<uid> is open to other users (mode 777). Nothing is sent until it is`,
    );
    expect(requests).toBe(0);
  });

  test("XDG_RUNTIME_DIR naming another user's folder is refused, not passed over for the temporary folder", async () => {
    const runtime = join(shared, "runtime");
    mkdirSync(runtime, { mode: 0o700 });
    chownSync(runtime, other, other);
    process.env.XDG_RUNTIME_DIR = runtime;
    expect(await refusal()).toMatchInlineSnapshot(
      `"incident-sync keeps its leases and the shared rate budget in a folder of this user alone, and <tmp>/runtime is not this user's (owner <other>, not <uid>). Nothing is sent until it is: set XDG_RUNTIME_DIR to a folder of your own that no other user may enter (mode 700), or unset it."`,
    );
    expect(requests).toBe(0);
  });

  test("incident-sync up says so on its own output and exits 1 before the engine starts", async () => {
    const planted = join(shared, `incident-sync-${me}`);
    mkdirSync(planted, { mode: 0o700 });
    chownSync(planted, other, other);
    const project = join(shared, "project");
    mkdirSync(join(project, "incidents"), { recursive: true });
    writeFileSync(join(project, "Pulumi.yaml"), "name: incident-sync\nruntime: nodejs\n");
    const target = {
      project,
      stack: "prod",
      state: join(shared, "state"),
      apiUrl: server.url,
      accountId: "acct",
    };
    const run = await runCli(upArgs(target), project, {
      MONITORING_API_KEY: API_KEY,
      PULUMI_CONFIG_PASSPHRASE: "runtime-folder",
      HOME: shared,
      TMPDIR: shared,
    });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(
      `${planted} is not this user's (owner ${other}, not ${me}). Nothing is sent until it is: remove ${planted}`,
    );
    expect(requests).toBe(0);
  });
});
