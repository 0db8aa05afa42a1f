import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/api";
import { exportedStackRecords, readStackRecords } from "../../src/cli/stack-records";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { LOCAL_DEMO_PASSPHRASE, resolveEngine } from "../../src/engine";
import { DriftReport } from "../../src/reports";
import { runCli } from "../cli/run-cli";
import { copyCheckout, reuseBuild } from "./support/checkout";

const timeout = 300_000;

/**
 * `drift --stack` as a team runs it after `up`: the state the engine wrote is read for the ids
 * of the incidents `up` opened and the updates it posted, and the status page is read through
 * its public API.
 */
describe("incident-sync drift --stack after up", () => {
  let root: string;
  let project: string;
  let emulator: RunningEmulator | undefined;

  beforeAll(async () => {
    await resolveEngine();
    root = mkdtempSync(join(tmpdir(), "incident-sync-drift-stack-"));
    project = copyCheckout(join(root, "project"));
    reuseBuild(project);
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=Ops", "-c", "user.email=ops@example.com", ...args], {
        cwd: project,
        stdio: "ignore",
      });
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "The team's incidents");
  }, timeout);

  afterAll(async () => {
    await emulator?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it(
    "is clean after up opened an incident (the state read from its file as through the engine), then names an update posted and a name changed on the status page, as pulumi preview --refresh does; preview names a rename old → new, onPageChange refuse keeps it (exit 3) and revert puts it back and says so",
    async () => {
      const up = await runCli(["up", "--emulator"], project);
      expect(up.exitCode, up.stderr).toBe(0);

      // The sandbox's emulator again, on its data: the status page `up` left.
      emulator = await startEmulator({
        port: 0,
        seed: "demo",
        dataFile: join(project, ".incident-sync", "emulator.db"),
      });
      const env = {
        MONITORING_API_URL: emulator.url,
        MONITORING_ACCOUNT_ID: emulator.demo.accountId,
        MONITORING_API_KEY: emulator.demo.apiKey,
      };
      const drift = async () => {
        const run = await runCli(
          [
            "drift",
            "--stack",
            "dev",
            "--state",
            join(".incident-sync", "engine", "backend"),
            "--format",
            "json",
          ],
          project,
          env,
        );
        return { ...run, report: DriftReport.parse(JSON.parse(run.stdout)) };
      };

      // `pulumi preview --refresh` of the stack, as the sandbox runs it: the engine's verdict.
      const preview = async () => {
        const run = await runCli(
          ["preview", "--emulator", "--refresh", "--expect-no-changes", "--format", "json"],
          project,
        );
        const report = JSON.parse(run.stdout) as {
          incidents: { resource: string; op: string }[];
        };
        return {
          exitCode: run.exitCode,
          changing: report.incidents.filter((step) => step.op !== "same").map((s) => s.resource),
        };
      };

      const clean = await drift();
      expect(clean.exitCode, clean.stderr).toBe(0);
      expect(clean.report.stack).toEqual({ name: "dev", read: true });
      expect(clean.report.summary).toMatchObject({ unchecked: 0, drifted: 0, fieldsDrifted: 0 });
      expect(await preview()).toEqual({ exitCode: 0, changing: [] });
      // The incident up opened, checked by the id the state holds; its updates are git's.
      const opened = clean.report.definitions.find((d) => d.file.endsWith("card-payments.yaml"));
      expect(opened).toMatchObject({ state: "in-sync", liveStatus: "IDENTIFIED" });
      expect(opened?.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(opened?.updatesOutsideGit).toEqual([]);
      const incidentId = opened?.id ?? "";

      // One reader of the state: the file a `file://` backend keeps, and the engine's export
      // that any other backend is read through, give the same records.
      const source = {
        stack: "dev",
        project: { dir: project, name: "incident-sync" },
        backendUrl: `file://${join(project, ".incident-sync", "engine", "backend")}`,
        passphrase: LOCAL_DEMO_PASSPHRASE,
      };
      const fromFile = await readStackRecords(source);
      expect(fromFile.read && fromFile.ids.get("card-payments-declined")).toBe(incidentId);
      // Read in a PULUMI_HOME of its own, to see that reading selected no stack: the user's
      // selected stack stays the one they chose.
      const home = join(root, "pulumi-home");
      const userHome = process.env.PULUMI_HOME;
      process.env.PULUMI_HOME = home;
      try {
        expect(await exportedStackRecords(source)).toEqual(fromFile);
      } finally {
        if (userHome === undefined) delete process.env.PULUMI_HOME;
        else process.env.PULUMI_HOME = userHome;
      }
      expect(existsSync(join(home, "workspaces"))).toBe(false);

      // Someone acts on the status page, through the service's public API.
      const api = createClient({
        baseUrl: emulator.url,
        apiKey: emulator.demo.apiKey,
        accountId: emulator.demo.accountId,
      });
      const live = await api.incidents.get(incidentId);
      await api.incidents.postUpdate(incidentId, {
        description: "Payments work again; we are watching.",
        status: "MONITORING",
        notifySubscribers: false,
      });
      await api.incidents.update(incidentId, {
        name: "Card payments were declined",
        severity: "MAJOR",
        services: live.services.map((service) => ({
          id: service.id,
          name: service.name ?? "Checkout",
          accountId: emulator?.demo.accountId ?? "",
        })),
      });

      const drifted = await drift();
      expect(drifted.exitCode, drifted.stderr).toBe(2);
      // One verdict: the refreshing preview finds the same incident changed, and only it.
      expect(await preview()).toEqual({ exitCode: 1, changing: ["card-payments-declined"] });
      const changed = drifted.report.definitions.find((d) => d.id === incidentId);
      expect(changed).toMatchObject({
        state: "drifted",
        liveStatus: "MONITORING",
        fields: [
          {
            field: "name",
            declared: "Some card payments are declined",
            live: "Card payments were declined",
          },
        ],
      });
      expect(changed?.updatesOutsideGit.map((u) => [u.status, u.class])).toEqual([
        ["MONITORING", "drift"],
      ]);

      // A teammate renames an incident declared by its id (as import writes it) on the page;
      // card payments gets git's name back by hand, so only the rename is left to decide.
      await api.incidents.update(incidentId, {
        name: "Some card payments are declined",
        severity: "MAJOR",
        services: live.services.map((service) => ({
          id: service.id,
          name: service.name ?? "Checkout",
          accountId: emulator?.demo.accountId ?? "",
        })),
      });
      const errors = await api.incidents.get("inc-api-errors");
      await api.incidents.update("inc-api-errors", {
        name: "API errors (seen by support)",
        severity: "MAJOR",
        services: errors.services.map((service) => ({
          id: service.id,
          name: service.name ?? service.id,
          accountId: emulator?.demo.accountId ?? "",
        })),
      });
      const shown = (text: string, ...marks: string[]) =>
        text
          .split("\n")
          .filter((line) => marks.some((mark) => line.includes(mark)))
          .map((line) => line.replace(/at \d{4}-[\d-]+T[\d:.]+Z/g, "at <time>"))
          .join("\n");
      // Before a run undoes it, preview names it: the page's name → git's, and when.
      const previewed = await runCli(["preview", "--emulator"], project);
      expect(previewed.exitCode, previewed.stderr).toBe(2);
      expect(shown(previewed.stdout, "put back")).toMatchInlineSnapshot(
        `"      to put back name "API errors (seen by support)" → "Elevated error rate on the public API" (changed on the status page at <time>)"`,
      );

      // Under refuse, up fails that incident alone (exit 3) and the page keeps the rename.
      const settings = join(project, "Pulumi.dev.yaml");
      const plain = readFileSync(settings, "utf8");
      writeFileSync(settings, `${plain}  incident-sync:onPageChange: refuse\n`);
      const refused = await runCli(["up", "--emulator"], project);
      expect(refused.exitCode, refused.stdout + refused.stderr).toBe(3);
      expect(shown(refused.stdout.split("\n\n")[0] ?? "", "✗")).toMatchInlineSnapshot(
        `"✗ Elevated error rate on the public API (inc-api-errors): incident inc-api-errors was changed on the status page at <time> (name "API errors (seen by support)" → "Elevated error rate on the public API"), and onPageChange is refuse, so nothing was sent and the page keeps the change. Take it into git (name: "API errors (seen by support)" in its definition) and run again, or set incident-sync:onPageChange to revert to put git's values back."`,
      );
      expect((await api.incidents.get("inc-api-errors")).name).toBe("API errors (seen by support)");

      // Under revert, the default, up puts git's name back and its report says what it put back.
      writeFileSync(settings, plain);
      const reverted = await runCli(["up", "--emulator"], project);
      expect(reverted.exitCode, reverted.stderr).toBe(0);
      expect(shown(reverted.stdout, "put back")).toMatchInlineSnapshot(
        `"      put back name "API errors (seen by support)" → "Elevated error rate on the public API" (changed on the status page at <time>)"`,
      );
      expect((await api.incidents.get("inc-api-errors")).name).toBe(
        "Elevated error rate on the public API",
      );
    },
    timeout,
  );
});
