import { mkdirSync } from "node:fs";
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

const timeout = 600_000;
const INCIDENTS = 12;
const LIMIT = 24;

/**
 * R9 of the reliability suite: `incident-sync up`, as a pipeline runs it, against a service
 * that behaves as the real one may where its contract is silent (issue 37): a rate window of
 * `--rate-limit` requests per 60 s answering 429 without Retry-After, which one run's claim,
 * program and provider must keep to together; and a PUT that ignores the status, which must
 * fail the incidents it did not take, never report them updated.
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
    `up --rate-limit ${LIMIT} through a window of ${LIMIT} requests per 60 s meets no 429 and finishes, first and again`,
    async () => {
      control().setBehaviour({ rateWindow: { limit: LIMIT, seconds: 60 } });
      try {
        for (const run of ["first", "no change"]) {
          control().resetStats();
          const started = Date.now();
          const result = await up("--rate-limit", String(LIMIT));
          const stats = control().stats();
          console.log(
            `R9 up --rate-limit ${LIMIT} (${run}): ${stats.total} requests, ${stats.byStatus["429"] ?? 0} answered 429, ${Math.round((Date.now() - started) / 1000)} s`,
          );
          expect(result.exitCode, result.stdout + result.stderr).toBe(0);
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
