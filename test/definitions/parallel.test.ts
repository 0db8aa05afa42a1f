import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ParseJob } from "../../src/definitions/parse-jobs";
import { parseJobs } from "../../src/definitions/parse-jobs";
import { definitionYaml } from "./helpers";

/** The compiled module: worker threads run compiled JavaScript only. */
const compiled = path.join(__dirname, "..", "..", "dist", "src", "definitions", "parse-jobs.js");

describe("parsing on several threads", () => {
  it("gives exactly the results of one thread, in the same order", async () => {
    expect(existsSync(compiled), "run npm run build first").toBe(true);
    const { parseJobsInParallel } = (await import(compiled)) as {
      parseJobsInParallel: (
        jobs: readonly ParseJob[],
        threads: number,
        filesPerThread: number,
      ) => Promise<unknown>;
    };
    const jobs: ParseJob[] = Array.from({ length: 3_000 }, (_, index) => ({
      path: `incidents/${String(index).padStart(4, "0")}.yaml`,
      text:
        index % 500 === 7
          ? definitionYaml({ id: `inc-${index}`, severity: "SEVERE" })
          : definitionYaml({ id: `inc-${index}` }),
    }));
    jobs.push({ path: "incidents/missing.yaml", readFrom: "/nonexistent/incident.yaml" });
    const parallel = await parseJobsInParallel(jobs, 3, 1_000);
    expect(parallel).toEqual(parseJobs(jobs));
  });
});
