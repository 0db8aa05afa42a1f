import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { parseDefinitionFile } from "./parse-file";
import type { ParsedFile } from "./parsed-file";
import type { ProblemCode } from "./problem";
import { type Refusal, readRegularFile } from "./read-regular-file";

/**
 * One file to parse, shown as `path`: its text, the path to read it from (a regular file
 * inside the definitions directory, links resolved), or why it is not read.
 */
export type ParseJob = (
  | { readonly path: string; readonly text: string }
  | { readonly path: string; readonly readFrom: string }
  | { readonly path: string; readonly refused: Refusal }
) & { readonly catalog?: boolean | undefined };

/**
 * Files each thread must have before another starts: a worker's cold start costs as much as
 * parsing thousands of plain files (BENCHMARKS.md, "Incident definitions").
 */
const FILES_PER_WORKER = 10_000;
const MAX_THREADS = 8;

/**
 * Reads and parses files in this thread. Reads are synchronous on purpose: for many
 * small files a synchronous read is about ten times faster than `fs.promises.readFile`.
 */
export function parseJobs(jobs: readonly ParseJob[]): ParsedFile[] {
  return jobs.map((job) => {
    if ("text" in job) return parseDefinitionFile(job);
    const read = "refused" in job ? job.refused : readRegularFile(job.readFrom);
    if ("text" in read) {
      return parseDefinitionFile({ path: job.path, text: read.text, catalog: job.catalog });
    }
    return fileProblem(job.path, read.code, read.message, read.line, read.column);
  });
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A file that was not read, with the one problem that says why (at its start unless known). */
export function fileProblem(
  file: string,
  code: ProblemCode,
  message: string,
  line = 1,
  column = 1,
): ParsedFile {
  return {
    definitions: [],
    identities: [],
    problems: [{ file, line, column, code, message }],
  };
}

/**
 * Parses jobs on several threads when there are enough of them, keeping their order; on this
 * thread when the compiled worker is not there (from the TypeScript sources).
 */
export async function parseJobsInParallel(
  jobs: readonly ParseJob[],
  threads = Math.min(availableParallelism(), MAX_THREADS),
  filesPerThread = FILES_PER_WORKER,
): Promise<ParsedFile[]> {
  const workerFile = path.join(__dirname, "parse-worker.js");
  const count = Math.min(threads, Math.floor(jobs.length / filesPerThread));
  if (count <= 1 || !existsSync(workerFile)) return parseJobs(jobs);

  const size = Math.ceil(jobs.length / count);
  const chunks = Array.from({ length: count }, (_, index) =>
    jobs.slice(index * size, (index + 1) * size),
  );
  const [own = [], ...others] = chunks;
  const pending = others.map(
    (chunk) =>
      new Promise<ParsedFile[]>((resolve, reject) => {
        const worker = new Worker(workerFile, { workerData: chunk });
        worker.once("message", (results: ParsedFile[]) => resolve(results));
        worker.once("error", reject);
        worker.once("exit", (code) => {
          if (code !== 0) reject(new Error(`a definitions parser thread exited with code ${code}`));
        });
      }),
  );
  // This thread takes the first chunk while the workers start and run.
  const first = parseJobs(own);
  const rest = await Promise.all(pending);
  return [first, ...rest].flat();
}
