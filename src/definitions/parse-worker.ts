import { parentPort, workerData } from "node:worker_threads";
import { type ParseJob, parseJobs } from "./parse-jobs";

/** Entry of a parser thread started by `parseJobsInParallel`: parse, reply, exit. */
parentPort?.postMessage(parseJobs(workerData as ParseJob[]));
