import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SCALE_ACCOUNT,
  SCALE_API_KEY,
  scaleId,
  scaleSeed,
  writeScaleDefinitions,
  writeScaleProject,
} from "../../bench/support/scale-project.mjs";
import { pipelineEnv, runCli, upArgs } from "../cli/run-cli";
import { incidentRows } from "../engine/support/emulator-rows";
import { type EmulatorSandbox, startEmulatorSandbox } from "../engine/support/emulator-sandbox";
import { sized } from "./size";

const timeout = 600_000;
const INCIDENTS = sized({ full: 12, smallest: 4 });
const LIMIT = 24;
/**
 * Error groups the report beside the first `up` exports: 40 pages of 100, 40 requests (20 at
 * the smallest size), of a check no definition lists as evidence, so the `up` reads none.
 */
const GROUPS = sized({ full: 4_000, smallest: 2_000 });
/**
 * The windows' worth the first `up` and the report send together. More than one overruns the
 * window unless they share a budget; the full size sends more than two for a margin, and the
 * smallest a little over one, so it waits one window (60 s) rather than two.
 */
const WINDOWS = sized({ full: 2, smallest: 1 });
const REPORTED_CHECK = "chk-beside";

/**
 * R9 of the reliability suite: `incident-sync up`, as a pipeline runs it, against a service
 * that behaves as the real one may where its contract is silent (issue 37): a rate window of
 * `--rate-limit` requests per 60 s answering 429 without Retry-After, which one run's claim,
 * program and provider, and a report beside them, must keep to together; and a PUT that
 * ignores the status, which must fail the incidents it did not take, never report them updated.
 */
describe("incident-sync up against the service's unknowns", () => {
  let sandbox: EmulatorSandbox;
  let project: string;
  let state: string;
  const up = (...more: string[]) =>
    runCli(
      upArgs(
        {
          project,
          stack: "behaviours",
          state,
          apiUrl: sandbox.emulator.url,
          accountId: SCALE_ACCOUNT,
        },
        ...more,
      ),
      project,
      pipelineEnv(SCALE_API_KEY, "behaviours-passphrase"),
    );
  const control = () => sandbox.emulator.emulator.control;
  /** `report errors` of every group, from another process with the same key and URL. */
  const report = () =>
    runCli(
      ["report", "errors", "--check", REPORTED_CHECK, "--format", "json", "--out", "groups.json"]
        .concat(["--rate-limit", String(LIMIT), "--api-url", sandbox.emulator.url])
        .concat(["--account-id", SCALE_ACCOUNT]),
      sandbox.root,
      { MONITORING_API_KEY: SCALE_API_KEY, HOME: process.env.HOME ?? tmpdir() },
    );

  beforeAll(async () => {
    sandbox = await startEmulatorSandbox("behaviours", scaleSeed(INCIDENTS));
    state = join(sandbox.root, "state");
    mkdirSync(state);
    project = writeScaleProject(join(sandbox.root, "project"));
    writeScaleDefinitions(project, INCIDENTS, { variant: 0 });
  }, timeout);

  afterAll(async () => {
    await sandbox?.close();
  });

  it(
    `up --rate-limit ${LIMIT} with a report beside it, sending more than a window of ${LIMIT} per 60 s allows, meets no 429 and finishes, first and again`,
    async () => {
      control().generateErrorGroups(SCALE_ACCOUNT, REPORTED_CHECK, GROUPS);
      control().setBehaviour({ rateWindow: { limit: LIMIT, seconds: 60 } });
      try {
        for (const run of ["first", "no change"]) {
          control().resetStats();
          const started = Date.now();
          // The first run shares the window with a report: each alone keeps to it, so only a
          // budget shared by every process of the machine keeps both to it at once.
          const [result, beside] = await Promise.all([
            up("--rate-limit", String(LIMIT)),
            run === "first" ? report() : undefined,
          ]);
          const stats = control().stats();
          const seconds = Math.round((Date.now() - started) / 1000);
          console.log(
            `R9 up --rate-limit ${LIMIT} (${run}): ${stats.total} requests${beside ? " with a report beside it" : ""}, ${stats.byStatus["429"] ?? 0} answered 429, ${seconds} s`,
          );
          expect(result.exitCode, result.stdout + result.stderr).toBe(0);
          if (beside) {
            expect(beside.exitCode, beside.stderr).toBe(0);
            // Over WINDOWS windows' worth: two processes each pacing to the limit alone overrun it.
            expect(stats.total).toBeGreaterThan(WINDOWS * LIMIT);
          }
          expect(stats.byStatus["429"]).toBeUndefined();
        }
      } finally {
        control().setBehaviour({ rateWindow: "off" });
      }
    },
    timeout,
  );

  it(
    "up through a PUT that ignores the status fails every incident it did not take, saying what the service kept, and the next up tries again",
    async () => {
      writeScaleDefinitions(project, INCIDENTS, { variant: 0, status: "IDENTIFIED" });
      control().setBehaviour({ putStatus: "ignores" });
      try {
        for (const attempt of [1, 2]) {
          const result = await up("--format", "json");
          expect(result.exitCode, `attempt ${attempt}`).toBe(1);
          const report = JSON.parse(result.stdout) as {
            incidents: { resource: string; action: string; error: string | null }[];
          };
          expect(report.incidents).toHaveLength(INCIDENTS);
          for (const incident of report.incidents) {
            expect(incident.action).toBe("not updated");
            expect(incident.error).toContain(
              'the service answered the PUT with status "INVESTIGATING", not what was sent (status IDENTIFIED): it did not take the change',
            );
          }
        }
        expect(incidentRows(sandbox.db, SCALE_ACCOUNT).get(scaleId(0))?.status).toBe(
          "INVESTIGATING",
        );
      } finally {
        control().setBehaviour({ putStatus: "posts-update" });
      }
      // Once the service takes it, the same definitions converge.
      const taken = await up();
      expect(taken.exitCode, taken.stdout + taken.stderr).toBe(0);
      expect(incidentRows(sandbox.db, SCALE_ACCOUNT).get(scaleId(0))?.status).toBe("IDENTIFIED");
      console.log(
        `R9 PUT ignoring the status: ${INCIDENTS} of ${INCIDENTS} failed, twice, then converged`,
      );
    },
    timeout,
  );
});
