import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createClient } from "../../src/api";
import { runDrift } from "../../src/cli/commands/drift";
import { runReportIncident } from "../../src/cli/commands/report-incident";
import type { RunningEmulator } from "../../src/emulator";
import { INCIDENT_TYPE } from "../../src/incident/resource-type";
import { DriftReport, IncidentReport } from "../../src/reports";
import {
  ACCOUNT,
  API_KEY,
  apiEnv,
  captureIo,
  startSeededEmulator,
  tempDir,
} from "../reports/support/harness";
import { CLI } from "./run-cli";

const git = promisify(execFile);
const PROJECT = "drift-stack-test";
const SERVICES = [{ id: "svc-api", name: "Public API", accountId: ACCOUNT }];

let running: RunningEmulator;
let project: string;
let incidentId: string;

const client = () => createClient({ baseUrl: running.url, apiKey: API_KEY, accountId: ACCOUNT });

/** A `file://` backend's state of stack `prod`, as the engine writes it after `up`. */
async function writeState(resources: unknown[]): Promise<void> {
  const dir = path.join(project, "state", ".pulumi", "stacks", PROJECT);
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, "prod.json"),
    JSON.stringify({ version: 3, checkpoint: { stack: "prod", latest: { resources } } }),
  );
}

async function drift(extra: object = {}) {
  const capture = captureIo(apiEnv(running), project);
  const code = await runDrift({ format: "json", ...extra }, capture.io);
  const report = DriftReport.parse(JSON.parse(capture.stdout()));
  return { code, report, stderr: capture.stderr };
}

beforeAll(async () => {
  running = await startSeededEmulator();
  project = await tempDir("drift-stack");
  await writeFile(path.join(project, "Pulumi.yaml"), `name: ${PROJECT}\nruntime: nodejs\n`);
  await mkdir(path.join(project, "incidents"));
  await writeFile(path.join(project, "incidents", "services.yaml"), "svc-api: Public API\n");
  await writeFile(
    path.join(project, "incidents", "card-payments.yaml"),
    `# A new incident: up opens it, and the stack's state holds its id.
resource: card-payments
name: Some card payments are declined
severity: MAJOR
services: [svc-api]
updates:
  - status: INVESTIGATING
    message: Some card payments are declined. We are looking into it.
  - status: IDENTIFIED
    message: A certificate expired; a new one is being rolled out.
`,
  );
  const inRepo = { cwd: project };
  await git("git", ["init", "-q", "-b", "main"], inRepo);
  await git("git", ["add", "incidents", "Pulumi.yaml"], inRepo);
  await git(
    "git",
    ["-c", "user.name=Ops", "-c", "user.email=ops@example.com", "commit", "-q", "-m", "Open"],
    inRepo,
  );
  // What `up` does after the merge: it opens the incident with the first entry, posts the
  // second, and records both updates' ids and the time of its apply in the stack's state.
  const api = client();
  const opened = await api.incidents.create({
    name: "Some card payments are declined",
    severity: "MAJOR",
    services: SERVICES,
    incidentUpdates: [
      {
        description: "Some card payments are declined. We are looking into it.",
        status: "INVESTIGATING",
        notifySubscribers: false,
      },
    ],
  });
  incidentId = opened.id;
  const second = await api.incidents.postUpdate(incidentId, {
    description: "A certificate expired; a new one is being rolled out.",
    status: "IDENTIFIED",
    notifySubscribers: false,
  });
  const after = await api.incidents.get(incidentId);
  await writeState([
    {
      urn: `urn:pulumi:prod::${PROJECT}::pulumi:pulumi:Stack::${PROJECT}-prod`,
      type: "pulumi:pulumi:Stack",
    },
    {
      urn: `urn:pulumi:prod::${PROJECT}::${INCIDENT_TYPE}::card-payments`,
      type: INCIDENT_TYPE,
      outputs: {
        incidentId,
        name: "Some card payments are declined",
        status: "IDENTIFIED",
        appliedAt: after.updated_at ?? after.created_at,
        updateIds: [opened.incidentUpdates[0]?.id, second.id],
        appliedUpdates: [],
      },
    },
  ]);
});

afterAll(async () => {
  await running?.close();
});

describe("drift --stack reads the stack's state", () => {
  test("without --stack, an incident up opened cannot be checked: drift says so and exits 4, never 0", async () => {
    const { code, report } = await drift();
    expect(code).toBe(4);
    expect(report.drift).toBe(false);
    expect(report.summary).toMatchObject({ definitions: 1, unchecked: 1 });
    expect(report.definitions[0]).toMatchObject({ id: "(new: card-payments)", checked: false });
    const text = captureIo(apiEnv(running), project);
    expect(await runDrift({ format: "text" }, text.io)).toBe(4);
    expect(text.stdout()).toMatchInlineSnapshot(`
      "UNCHECKED Some card payments are declined (new: card-payments)  declared IDENTIFIED, live (not checked)  (incidents/card-payments.yaml:2)
               a new incident: its id is in the stack's state once the first up has opened it; pass --stack to read it

      Not all checked: 1 of 1 definition(s) could not be checked; 0 in sync, 0 unknown.
      "
    `);
  });

  test("with --stack, an incident up opened is checked by the id the state holds, and the updates up posted are not outside git (exit 0)", async () => {
    const { code, report } = await drift({ stack: "prod", state: "state" });
    expect(code).toBe(0);
    expect(report.stack).toEqual({ name: "prod", read: true });
    expect(report.definitions).toMatchObject([
      {
        id: incidentId,
        state: "in-sync",
        liveStatus: "IDENTIFIED",
        updatesOutsideGit: [],
      },
    ]);
    expect(report.definitions[0]?.fields).toBeUndefined();
  });

  test("report incident links an incident up opened to its definition by the id the stack's state holds", async () => {
    const report = async (extra: object) => {
      const capture = captureIo(apiEnv(running), project);
      const code = await runReportIncident(
        { ids: [incidentId], dir: "incidents", margin: "1h", format: "json", ...extra },
        capture.io,
      );
      expect(code).toBe(0);
      return {
        report: IncidentReport.parse(JSON.parse(capture.stdout())),
        stderr: capture.stderr(),
      };
    };
    const linked = await report({ stack: "prod", state: "state" });
    expect(linked.report.incidents[0]?.definition).toMatchObject({
      file: "incidents/card-payments.yaml",
      name: "Some card payments are declined",
    });
    const unread = await report({ stack: "staging", state: "state" });
    expect(unread.report.incidents[0]?.definition).toBeNull();
    expect(unread.stderr).toContain(
      "Note: the state of stack staging could not be read (stack staging of project drift-stack-test has no state in",
    );
  });

  test("--state without --stack is refused: it names where a stack's state is, not which stack", async () => {
    const capture = captureIo(apiEnv(running), project);
    await expect(runDrift({ format: "json", state: "state" }, capture.io)).rejects.toThrow(
      "--state names where a stack's state is: give the stack with --stack.",
    );
  });

  test("a stack whose state cannot be read: drift says how many incidents it could not check and exits 4", async () => {
    const { code, report, stderr } = await drift({ stack: "staging", state: "state" });
    expect(code).toBe(4);
    expect(report.summary.unchecked).toBe(1);
    expect(report.stack?.read).toBe(false);
    expect(stderr().replaceAll(project, "<project>")).toMatchInlineSnapshot(`
      "incident-sync drift: the state of stack staging could not be read (stack staging of project drift-stack-test has no state in <project>/state (\`incident-sync up --stack staging\` makes it)); 1 incident(s) could not be checked, and those with an id were checked by their updates alone.
      "
    `);
  });

  test("an update posted and a name changed on the status page are both named as drift (exit 2)", async () => {
    const api = client();
    await api.incidents.postUpdate(incidentId, {
      description: "Payments recovered; watching.",
      status: "MONITORING",
      notifySubscribers: false,
    });
    await api.incidents.update(incidentId, {
      name: "Card payments are declined",
      severity: "MAJOR",
      services: SERVICES,
    });
    const { code, report } = await drift({ stack: "prod", state: "state" });
    expect(code).toBe(2);
    expect(report.summary).toMatchObject({ drifted: 1, fieldsDrifted: 1 });
    const [definition] = report.definitions;
    expect(definition?.state).toBe("drifted");
    expect(definition?.fields).toEqual([
      {
        field: "name",
        declared: "Some card payments are declined",
        live: "Card payments are declined",
      },
    ]);
    expect(definition?.updatesOutsideGit.map((u) => [u.status, u.class, u.description])).toEqual([
      ["MONITORING", "drift", "Payments recovered; watching."],
    ]);
  });
});

describe("drift --stack and report read only their own stack's state", () => {
  const stateDir = () => path.join(project, "state", ".pulumi", "stacks", PROJECT);

  test("a FIFO as the state file is refused at once, not waited on, and drift ends within its deadline (exit 4)", async () => {
    await git("mkfifo", [path.join(stateDir(), "piped.json")]);
    const started = Date.now();
    const run = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [CLI, "drift", "--stack", "piped", "--state", "state", "--deadline", "20s"],
        { cwd: project, env: { PATH: process.env.PATH, ...apiEnv(running) }, timeout: 25_000 },
        (error, _stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, stderr: String(stderr) }),
      );
    });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(run.code).toBe(4);
    expect(run.stderr.replaceAll(project, "<project>")).toContain(
      "the state of stack piped could not be read (<project>/state/.pulumi/stacks/drift-stack-test/piped.json is a named pipe (FIFO), not a regular file: it is not read)",
    );
  });

  test("a backend whose pulumi stack export hangs is given up at the deadline, the export stopped with it (exit 4)", async () => {
    // A Pulumi install whose stack export never answers, as a backend out of reach would.
    const bin = await tempDir("hanging-pulumi");
    const script = `#!/bin/sh\ncase "$1" in version) echo v3.259.0 ;; stack) sleep 120 ;; *) exit 0 ;; esac\n`;
    for (const name of ["pulumi", "pulumi-language-nodejs"]) {
      await writeFile(path.join(bin, name), script, { mode: 0o755 });
    }
    const started = Date.now();
    const run = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [CLI, "drift", "--stack", "prod", "--deadline", "5s"],
        {
          cwd: project,
          env: {
            PATH: process.env.PATH,
            ...apiEnv(running),
            INCIDENT_SYNC_PULUMI_BIN: bin,
            PULUMI_BACKEND_URL: "s3://incident-sync-unreachable",
            PULUMI_CONFIG_PASSPHRASE: "test",
          },
          timeout: 25_000,
        },
        (error, _stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, stderr: String(stderr) }),
      );
    });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain("it was not read by the deadline");
  });

  test("a gzip bomb as the state is refused once it decompresses past the bound, and drift exits 4", async () => {
    // 80 MiB of spaces, about 80 KB compressed.
    await writeFile(
      path.join(stateDir(), "bomb.json.gz"),
      gzipSync(Buffer.alloc(80 * 1024 * 1024, 0x20)),
    );
    const { code, report, stderr } = await drift({ stack: "bomb", state: "state" });
    expect(code).toBe(4);
    expect(report.stack?.read).toBe(false);
    expect(stderr().replaceAll(project, "<project>")).toContain(
      "(<project>/state/.pulumi/stacks/drift-stack-test/bomb.json.gz decompresses past 64.0 MiB, more than any stack's state: it is not read)",
    );
  });

  test("another stack's or another project's state is refused, naming both, by drift and report (exit 4)", async () => {
    const prod = await readFile(path.join(stateDir(), "prod.json"), "utf8");
    // prod's state copied where stack staging's would be.
    await writeFile(path.join(stateDir(), "copied.json"), prod);
    const copied = await drift({ stack: "copied", state: "state" });
    expect(copied.code).toBe(4);
    expect(copied.report.definitions[0]).toMatchObject({ checked: false });
    expect(copied.stderr().replaceAll(project, "<project>")).toMatchInlineSnapshot(`
      "incident-sync drift: the state of stack copied could not be read (<project>/state/.pulumi/stacks/drift-stack-test/copied.json holds the state of stack prod of project drift-stack-test, not of stack copied of project drift-stack-test asked for: it is not read, as its incidents are not this stack's. Give --state where this project's stack keeps its state, or run \`incident-sync up --stack copied\` here to make it); 1 incident(s) could not be checked, and those with an id were checked by their updates alone.
      "
    `);

    // Another team's project, its state under our project's name.
    const theirs = prod
      .replaceAll(`::${PROJECT}::`, "::payments-team::")
      .replaceAll("urn:pulumi:prod::", "urn:pulumi:theirs::")
      .replace('"stack":"prod"', '"stack":"organization/payments-team/theirs"');
    await writeFile(path.join(stateDir(), "theirs.json"), theirs);
    const other = await drift({ stack: "theirs", state: "state" });
    expect(other.code).toBe(4);
    expect(other.stderr()).toContain(
      "holds the state of stack theirs of project payments-team, not of stack theirs of project drift-stack-test asked for",
    );

    const capture = captureIo(apiEnv(running), project);
    const code = await runReportIncident(
      {
        ids: [incidentId],
        dir: "incidents",
        margin: "1h",
        format: "json",
        stack: "theirs",
        state: "state",
      },
      capture.io,
    );
    expect(code).toBe(4);
    expect(IncidentReport.parse(JSON.parse(capture.stdout())).incidents[0]?.definition).toBeNull();
    expect(capture.stderr()).toContain(
      "of project payments-team, not of stack theirs of project drift-stack-test",
    );
  });
});
