import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveEngine } from "../../src/engine";
import { runCli } from "../cli/run-cli";
import { docBlocksOf } from "../support/doc-blocks";
import { copyCheckout, repoRoot, reuseBuild } from "./support/checkout";
import { sh } from "./support/shell";

const timeout = 300_000;

/** What a person reads, whatever the run's timings and ports. */
function stable(text: string): string {
  return text
    .replace(/\d+\.\d s\)/g, "<s> s)")
    .replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:<port>")
    .replace(/\d{4}-\d\d-\d\d \d\d:\d\d/g, "<time>")
    .replace(/\d+(\.\d+)?% \/ \d+(\.\d+)?%/g, "<ratio> / <ratio>")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>");
}

/**
 * `npm start` is `incident-sync up --emulator`: the CLI as installed, with its output as a CI
 * log shows it (not a terminal). The README's first command is run as written in a copy of
 * this checkout on a warm machine (the packages installed, the engine built): it installs
 * nothing, finds the engine, builds, starts the emulator with the demo seed and runs `up` on
 * the dev stack.
 */
describe("incident-sync up --emulator, the main job behind npm start", () => {
  let root: string;
  let project: string;

  beforeAll(async () => {
    await resolveEngine();
    root = mkdtempSync(join(tmpdir(), "incident-sync-main-job-"));
    project = copyCheckout(join(root, "project"));
    reuseBuild(project);
    // Warm: the packages (this checkout's, linked) were installed from the copy's lock file,
    // which a copy dates now; dated before them, npm start runs no `npm ci` (which would
    // replace the link to node_modules).
    const installed = statSync(join(repoRoot, "node_modules", ".package-lock.json")).mtime;
    const before = new Date(installed.getTime() - 1_000);
    utimesSync(join(project, "package-lock.json"), before, before);
  }, timeout);

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it(
    "npm start, as the README gives it, installs nothing, builds and adopts the demo incidents; the next run finds nothing to change, in plain text without a terminal",
    async () => {
      const [line] = docBlocksOf("first-commands")[0]?.commands ?? [];
      expect(line).toBe("npm start");
      const first = await sh(line ?? "", project, {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ...(process.env.XDG_CACHE_HOME ? { XDG_CACHE_HOME: process.env.XDG_CACHE_HOME } : {}),
        ...(process.env.INCIDENT_SYNC_PULUMI_BIN
          ? { INCIDENT_SYNC_PULUMI_BIN: process.env.INCIDENT_SYNC_PULUMI_BIN }
          : {}),
      });
      expect(first.code, first.output).toBe(0);
      expect(first.output).not.toContain("Installing dependencies");
      const steps = first.output.split("\n").filter((text) => text.startsWith("» "));
      expect(steps).toEqual(["» Ensuring the Pulumi engine", "» Building (npm run build)"]);
      expect(first.output).toMatch(
        /^Emulator \(demo seed\) listening on http:\/\/127\.0\.0\.1:\d+/m,
      );
      const lines = stable(first.output).split("\n");
      expect(lines).toContain("Stack dev: changes applied (4 adopted, 1 opened; <s> s)");
      // The demo's new incident, opened with the id the service gave it.
      expect(lines).toContainEqual(
        expect.stringMatching(
          /^ {2}\+ Some card payments are declined \(card-payments-declined, <uuid>\) opened$/,
        ),
      );
      // The sandbox keeps its state and its stack file (and its passphrase's salt) under
      // .incident-sync/: nothing is written beside Pulumi.yaml that a team's own dev stack
      // could meet.
      expect(statSync(join(project, ".incident-sync", "engine")).isDirectory()).toBe(true);
      expect(
        readdirSync(project)
          .filter((name) => name.startsWith("Pulumi."))
          .sort(),
      ).toEqual(["Pulumi.dev.yaml", "Pulumi.yaml"]);
      expect(readFileSync(join(project, "Pulumi.dev.yaml"), "utf8")).toBe(
        readFileSync(join(repoRoot, "Pulumi.dev.yaml"), "utf8"),
      );

      // A sandbox made before its stack file was kept beside it (or whose file was lost): the
      // passphrase's salt is read back from its state, and its secrets keep opening.
      rmSync(join(project, ".incident-sync", "engine", "stacks", "Pulumi.dev.yaml"));
      const second = await runCli(["up", "--emulator"], project);
      expect(second.exitCode).toBe(0);
      expect(stable(second.stdout)).toMatchInlineSnapshot(`
        "Stack dev: no changes (5 unchanged; <s> s)

        Incidents (5), as declared in git and as live on the status page:
          Some card payments are declined (card-payments-declined, <uuid>)  declared IDENTIFIED, live IDENTIFIED
              declared: MAJOR  Some card payments are declined
              declared services: Checkout
              latest update <time> [IDENTIFIED]: A certificate of our payment provider's endpoint expired.\\nA new one is being rolled out; declined payments can be retried within the hour.\\n
          Elevated error rate on the public API (inc-api-errors)  declared MONITORING, live MONITORING
              declared: MAJOR  Elevated error rate on the public API
              declared services: Public API, Web app
              latest update <time> [MONITORING]: Rollback complete, error rates back to normal. Watching closely.
          Slow checkout for some customers in EU (inc-checkout-latency)  declared INVESTIGATING, live INVESTIGATING
              declared: MEDIUM  Slow checkout for some customers in EU
              declared services: Checkout
              latest update <time> [INVESTIGATING]: Checkout p99 latency is above 4 s for EU customers. Investigating.
          Scheduled database maintenance (db-maintenance, inc-db-maintenance)  declared RESOLVED, live RESOLVED
              declared: MINOR  Scheduled database maintenance
              declared services: Primary database, Public API
              latest update <time> [RESOLVED]: Maintenance finished, all systems nominal.
          Some users cannot log in with SSO (inc-login-failures)  declared RESOLVED, live RESOLVED
              declared: CRITICAL  Some users cannot log in with SSO
              declared services: Login and SSO, Web app
              latest update <time> [RESOLVED]: No failures for four hours. Resolved.
        Heartbeats (success ratio, last 24 h / last 7 days):
          Billing sync to the ledger (hb-billing-sync)  <ratio> / <ratio>  (3 events in 24 h)
          Nightly database backup (hb-nightly-backup)  no pings / 80%  (1 event in 24 h)
        Error groups (most recent first):
          Public API orders (chk-api)  3 groups, 0 archived
              <time>  Assertion failed: response.body.items.length expected > <n>, got <n> at <timestamp>
              <time>  <n> Bad Gateway from upstream <ip>:<n> (request <uuid>)
              <time>  Timeout of <n>ms exceeded for https://api.example.com/orders/<id>?<query>
          Checkout payment flow (chk-checkout)  2 groups, 0 archived
              <time>  POST https://pay.example.com/v2/sessions/<id>/confirm returned <n> after <n>ms
              <time>  TLS handshake failed: certificate has expired (trace <hex>)
          Web login page (chk-web)  1 group, 0 archived
              <time>  Page https://www.example.com/login?<query> did not load: net::ERR_CONNECTION_REFUSED
        Drift: none, the status page matches the definitions as far as the API shows (status and updates).
        "
      `);
    },
    timeout,
  );

  it(
    "refuses a service neither the emulator nor services.yaml has, with a did-you-mean, and runs nothing",
    async () => {
      const { writeFileSync, rmSync: remove } = await import("node:fs");
      const typo = join(project, "incidents", "typo.yaml");
      writeFileSync(
        typo,
        "id: inc-typo\nname: Typo\nseverity: MAJOR\nstatus: INVESTIGATING\nservices: [{ id: svc-chekout, name: Checkout }]\n",
      );
      try {
        const refused = await runCli(["up", "--emulator"], project);
        expect(refused.exitCode).toBe(1);
        expect(refused.stdout).toBe(
          `The definitions in incidents have a problem against the emulator's sandbox, so nothing was run:\n  incidents/typo.yaml:5:12: service "svc-chekout" is not in the emulator's sandbox (the demo's services and those of services.yaml): did you mean "svc-checkout"? If your status page has svc-chekout, add it to services.yaml. [unknown-service]\n`,
        );
      } finally {
        remove(typo);
      }
    },
    timeout,
  );

  it(
    "adds the services of services.yaml and an incident the emulator does not know to its sandbox with a note, and adopts it",
    async () => {
      const { appendFileSync, writeFileSync } = await import("node:fs");
      appendFileSync(join(project, "incidents", "services.yaml"), "svc-team: Team service\n");
      writeFileSync(
        join(project, "incidents", "own.yaml"),
        "id: inc-team-own\nname: Our own incident\nseverity: MINOR\nstatus: INVESTIGATING\nservices: [svc-team]\n",
      );
      const run = await runCli(["up", "--emulator"], project);
      expect(run.exitCode, run.stdout).toBe(0);
      expect(run.stderr).toContain(
        "Note: incident inc-team-own (incidents/own.yaml:1) is not in the emulator, so it was added to the emulator's sandbox as its definition declares it, for up to adopt. On the real service an incident with an id must already exist.\n",
      );
      expect(stable(run.stdout).split("\n").slice(0, 2)).toEqual([
        "Stack dev: changes applied (1 adopted, 5 unchanged; <s> s)",
        "  + Our own incident (inc-team-own) adopted",
      ]);
    },
    timeout,
  );

  it(
    "prints a failure first and last, the incident shown as failed, with exit code 1",
    async () => {
      const { readFileSync, writeFileSync } = await import("node:fs");
      const file = join(project, "incidents", "storefront.yaml");
      const declared = readFileSync(file, "utf8");
      writeFileSync(
        file,
        declared.replace(
          "severity: CRITICAL\nstatus: RESOLVED",
          "severity: CRITICAL\nstatus: IDENTIFIED",
        ),
      );
      try {
        const failed = await runCli(["up", "--emulator"], project);
        expect(failed.exitCode).toBe(1);
        const lines = failed.stdout.trim().split("\n");
        const cause =
          '✗ Some users cannot log in with SSO (inc-login-failures): incident inc-login-failures: status goes from RESOLVED back to IDENTIFIED; add "reopen: true" to reopen a resolved incident on purpose.';
        expect(lines[0]).toBe(cause);
        expect(lines.at(-1)).toBe(cause);
        expect(failed.stdout).not.toContain("Engine output");
      } finally {
        writeFileSync(file, declared);
      }
    },
    timeout,
  );

  it(
    "previews a sandbox stack that does not exist by saying how to create it, creating none",
    async () => {
      const preview = await runCli(["preview", "--emulator", "--stack", "prdo"], project);
      expect(preview.exitCode).toBe(1);
      expect(preview.stderr).toContain(
        "`incident-sync up --emulator --stack prdo` creates it in the emulator's sandbox. Only up creates a stack",
      );
    },
    timeout,
  );

  it(
    "reports a typo in a definition exactly as validate does, and starts no engine",
    async () => {
      const { writeFileSync, rmSync: remove } = await import("node:fs");
      const typo = join(project, "incidents", "typo.yaml");
      writeFileSync(
        typo,
        "id: inc-typo\nname: Typo\nsevrity: MAJOR\nstatus: INVESTIGATING\nservices: [svc-api]\n",
      );
      try {
        const failed = await runCli(["up", "--emulator", "--format", "json"], project);
        expect(failed.exitCode).toBe(1);
        const report = JSON.parse(failed.stdout) as { ok: boolean; errors: string[] };
        expect(report.ok).toBe(false);
        expect(report.errors).toEqual([
          'incidents/typo.yaml:1:1: missing required field "severity" (one of CRITICAL, MAJOR, MEDIUM, MINOR) [missing-key]',
          'incidents/typo.yaml:3:1: unknown field "sevrity"; did you mean "severity"? [unknown-key]',
        ]);
      } finally {
        remove(typo);
      }
    },
    timeout,
  );

  it(
    "stands for a Pulumi Cloud stack named with its organization, as validate and plan read it, and suggests only what works in the sandbox",
    async () => {
      const { writeFileSync, rmSync: remove } = await import("node:fs");
      const own = join(project, "incidents", "acme.yaml");
      writeFileSync(
        own,
        "id: inc-acme\nname: Acme's own incident\nseverity: MINOR\nstatus: INVESTIGATING\nservices: [svc-api]\nstacks: [acme/prod]\n",
      );
      try {
        const acme = await runCli(["up", "--emulator", "--stack", "acme/prod"], project);
        expect(acme.exitCode, acme.stdout + acme.stderr).toBe(0);
        expect(acme.stdout).toContain("  + Acme's own incident (inc-acme) adopted\n");
        expect(acme.stderr).not.toContain("organization name must be");
        // No Pulumi.prod.yaml: the outputs are counted, and the hint is the sandbox's own.
        const hint = acme.stdout.split("\n").find((line) => line.includes("detail is not in"));
        expect(hint).toContain("`incident-sync up --emulator --stack acme/prod --outputs full`");
        expect(hint).not.toMatch(/pulumi config|incident-sync drift/);
        // prod names acme's prod too, for up --emulator as for validate and plan.
        const validate = await runCli(["validate", "--stack", "prod", "--format", "json"], project);
        const declared = (
          JSON.parse(validate.stdout) as { definitions: { id: string; inStack: boolean }[] }
        ).definitions.find((definition) => definition.id === "inc-acme");
        expect(declared?.inStack).toBe(true);
        const prod = await runCli(
          ["up", "--emulator", "--stack", "prod", "--outputs", "full"],
          project,
        );
        expect(prod.exitCode, prod.stdout + prod.stderr).toBe(0);
        expect(prod.stdout).not.toMatch(/inc-acme (released|deleted)/);
        expect(prod.stdout).toMatch(/^Stack prod: no changes/m);
        // --outputs full: each incident in the summary, not the counts.
        expect(prod.stdout).not.toContain("detail is not in the stack outputs");
        expect(prod.stdout).toMatch(/inc-acme/);
      } finally {
        remove(own);
      }
    },
    timeout,
  );
});
