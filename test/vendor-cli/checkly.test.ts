import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { type HeaderProxy, startHeaderProxy } from "../support/header-proxy";

/**
 * The vendor's own CLI (`checkly` on npm) against the emulator, through a proxy that renames
 * its account header (`x-checkly-account`) to the emulator's (`x-service-account`): the
 * reference's status-page and incident operations as a second client uses them. Run by
 * `npm run vendor-cli`, which installs the pinned checkly and names its program here.
 */

const BIN = process.env.INCIDENT_SYNC_CHECKLY_BIN;

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

let emulator: RunningEmulator;
let proxy: HeaderProxy;
let home: string;

/** `checkly <args>` with this Node, its API at `url`, and nothing of this machine's settings. */
function checkly(args: readonly string[], url: string): Promise<Run> {
  if (BIN === undefined) {
    throw new Error(
      "INCIDENT_SYNC_CHECKLY_BIN is not set: run these tests with npm run vendor-cli, which installs checkly",
    );
  }
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      {
        encoding: "utf8",
        env: {
          PATH: process.env.PATH,
          HOME: home,
          CHECKLY_ENV: "local",
          CHECKLY_API_URL: url,
          CHECKLY_API_KEY: emulator.demo.apiKey,
          CHECKLY_ACCOUNT_ID: emulator.demo.accountId,
          // Its login check reads the vendor's account API, which is no part of this one.
          CHECKLY_SKIP_AUTH: "1",
          CHECKLY_SKIP_NEW_VERSION_CHECK: "true",
        },
      },
      (error, stdout, stderr) =>
        resolve({
          code: error ? Number((error as { code?: unknown }).code ?? 1) : 0,
          stdout,
          stderr,
        }),
    );
  });
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), "incident-sync-checkly-"));
  emulator = await startEmulator({
    port: 0,
    seed: "demo",
    behaviour: { accountHeader: "required" },
  });
  proxy = await startHeaderProxy(emulator.url, "x-checkly-account", "x-service-account");
});
afterAll(async () => {
  await proxy?.close();
  await emulator?.close();
  rmSync(home, { recursive: true, force: true });
});

describe("the vendor's CLI against the emulator", () => {
  it("lists the status pages with their cards' services", async () => {
    const run = await checkly(["status-pages", "list", "--output", "json"], proxy.url);
    expect(run.code, run.stderr).toBe(0);
    const listed = JSON.parse(run.stdout) as {
      data: { id: string; cards: { name: string; services: { id: string }[] }[] }[];
    };
    expect(listed.data.map((page) => page.id)).toEqual(["sp-acme"]);
    expect(listed.data[0]?.cards.map((card) => card.services.map((s) => s.id))).toEqual([
      ["svc-web", "svc-checkout", "svc-auth"],
      ["svc-api", "svc-db"],
    ]);
  });

  it("creates an incident on a status page, posts an update, and resolves it", async () => {
    const created = await checkly(
      [
        "incidents",
        "create",
        "--status-page-id",
        "sp-acme",
        "--title",
        "Checkout fails for some cards",
        "--services",
        "svc-checkout",
        "--severity",
        "major",
        "--message",
        "We are looking into it.",
        "--force",
        "--output",
        "json",
      ],
      proxy.url,
    );
    expect(created.code, created.stderr).toBe(0);
    const { id } = JSON.parse(created.stdout) as { id: string };
    const read = async () => {
      const response = await fetch(`${emulator.url}/v1/status-pages/incidents/${id}`, {
        headers: {
          authorization: `Bearer ${emulator.demo.apiKey}`,
          "x-service-account": emulator.demo.accountId,
        },
      });
      return (await response.json()) as {
        name: string;
        severity: string;
        services: { id: string }[];
        lastUpdateStatus: string;
        incidentUpdates: { description: string; status: string }[];
      };
    };
    expect(await read()).toMatchObject({
      name: "Checkout fails for some cards",
      severity: "MAJOR",
      services: [{ id: "svc-checkout" }],
      lastUpdateStatus: "INVESTIGATING",
      incidentUpdates: [{ description: "We are looking into it.", status: "INVESTIGATING" }],
    });

    const updated = await checkly(
      [
        "incidents",
        "update",
        id,
        "--message",
        "A card provider's outage.",
        "--status",
        "identified",
        "--force",
      ],
      proxy.url,
    );
    expect(updated.code, updated.stderr).toBe(0);
    expect((await read()).lastUpdateStatus).toBe("IDENTIFIED");

    const resolved = await checkly(
      ["incidents", "resolve", id, "--message", "Payments go through again.", "--force"],
      proxy.url,
    );
    expect(resolved.code, resolved.stderr).toBe(0);
    const after = await read();
    expect(after.lastUpdateStatus).toBe("RESOLVED");
    expect(after.incidentUpdates.map((update) => update.status)).toEqual([
      "RESOLVED",
      "IDENTIFIED",
      "INVESTIGATING",
    ]);
    // Each update it posted notified the subscribers, as its --notify-subscribers default says.
    const sent = emulator.emulator.control
      .notifications(emulator.demo.accountId)
      .filter((notification) => notification.incidentId === id);
    expect(sent).toHaveLength(3);
    expect(proxy.requests).toContain(`GET /v1/status-pages/sp-acme`);
  });

  it("is refused without the proxy, as it names the account header otherwise", async () => {
    const run = await checkly(["status-pages", "list", "--output", "json"], emulator.url);
    expect(run.code).not.toBe(0);
    expect(`${run.stdout}${run.stderr}`).toMatch(/401|Unauthorized|personal key/);
  });
});
