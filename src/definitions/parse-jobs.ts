import { existsSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { type ParsedFile, parseDefinitionFile } from "./parse-file";

/**
 * One file to parse, shown as `path`: its text, the path to read it from, or why it
 * could not be read.
 */
export type ParseJob =
  | { readonly path: string; readonly text: string }
  | { readonly path: string; readonly readFrom: string }
  | { readonly path: string; readonly readError: string };

/**
 * Files each thread must have before another thread is started. A worker's start-up
 * (a cold V8 and loading yaml, js-yaml and zod) costs about as much as parsing several
 * thousand plain files on the fast path, so 10,000 files stay on one thread (measured:
 * 410 ms on one thread, 529 ms on two; see BENCHMARKS.md).
 */
const FILES_PER_WORKER = 10_000;
const MAX_THREADS = 8;

/**
 * Reads and parses files in this thread. Reads are synchronous on purpose: for many
 * small files `readFileSync` is about ten times faster than `fs.promises.readFile`.
 */
export function parseJobs(jobs: readonly ParseJob[]): ParsedFile[] {
  return jobs.map((job) => {
    if ("text" in job) return parseDefinitionFile(job);
    if ("readError" in job) return unreadable(job.path, job.readError);
    let text: string;
    try {
      text = readFileSync(job.readFrom, "utf8");
    } catch (error) {
      return unreadable(job.path, errorText(error));
    }
    return parseDefinitionFile({ path: job.path, text });
  });
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function unreadable(file: string, reason: string): ParsedFile {
  return {
    definitions: [],
    problems: [
      {
        file,
        line: 1,
        column: 1,
        code: "unreadable-file",
        message: `the file could not be read: ${reason}`,
      },
    ],
  };
}

/**
 * Parses jobs on several threads when there are enough of them: YAML parsing is CPU
 * bound (10,000 plain files take about 0.4 s on one core, files that need the full
 * `yaml` path about 1.3 s). Results keep job order.
 * Falls back to this thread when the compiled worker is not there (running from
 * TypeScript sources, as in unit tests).
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
