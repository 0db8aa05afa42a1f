import {
  type Behaviour,
  parseRateWindow,
  type RunningEmulator,
  startEmulator,
} from "../../emulator";
import type {
  ACCOUNT_HEADERS,
  ANSWERS,
  CREATE_ANSWERS,
  EDIT_DATES,
  LIST_ORDERS,
  PUT_STATUSES,
  REFERENCE_OPERATIONS,
  UNKNOWN_CHECKS,
} from "../../emulator/behaviour-names";
import { ExitCode } from "../exit-codes";
import type { CommandIo } from "../io";
import { UsageError } from "../usage-error";

/** The emulator's flags as commander parses them. */
export interface EmulatorFlags {
  host: string;
  port: number;
  data?: string;
  seed: string;
  adminToken?: string;
  latency: number;
  jitter: number;
  failRate: number;
  rateLimitEvery: number;
  rateLimitBurst: number;
  retryAfter: number;
  resetRate: number;
  lostAnswerRate: number;
  putStatus?: (typeof PUT_STATUSES)[number];
  referenceOperations?: (typeof REFERENCE_OPERATIONS)[number];
  listOrder?: (typeof LIST_ORDERS)[number];
  /** `600/60s` or `off`, as the flag checked it. */
  rateWindow?: string;
  unknownCheck?: (typeof UNKNOWN_CHECKS)[number];
  accountHeader?: (typeof ACCOUNT_HEADERS)[number];
  answers?: (typeof ANSWERS)[number];
  createAnswer?: (typeof CREATE_ANSWERS)[number];
  createDelay?: number;
  editDate?: (typeof EDIT_DATES)[number];
  format: "text" | "json";
}

/** The behaviours given as flags; those not given are the emulator's own choice. */
function behaviourFlags(options: EmulatorFlags): Partial<Behaviour> {
  const rateWindow = options.rateWindow ? parseRateWindow(options.rateWindow) : undefined;
  return {
    ...(options.listOrder ? { listOrder: options.listOrder } : {}),
    ...(rateWindow ? { rateWindow } : {}),
    ...(options.unknownCheck ? { unknownCheck: options.unknownCheck } : {}),
    ...(options.accountHeader ? { accountHeader: options.accountHeader } : {}),
    ...(options.answers ? { answers: options.answers } : {}),
    ...(options.createAnswer ? { createAnswer: options.createAnswer } : {}),
    ...(options.createDelay === undefined ? {} : { createDelayMs: options.createDelay }),
    ...(options.editDate ? { editDate: options.editDate } : {}),
  };
}

/** The line printed once the server listens; the key shown is the seed's demo key. */
function startedLine(running: RunningEmulator, options: EmulatorFlags): string {
  if (options.format === "json") {
    return `${JSON.stringify({
      url: running.url,
      apiKey: running.demo.apiKey,
      accountId: running.demo.accountId,
      adminToken: running.adminToken,
      dataFile: options.data ?? null,
    })}\n`;
  }
  return `Emulator listening on ${running.url} · demo key ${running.demo.apiKey} · account ${running.demo.accountId} · control ${running.url}/_control (admin token ${running.adminToken}) · ${options.data ? `data ${options.data}` : "in memory"} · Ctrl-C stops\n`;
}

/**
 * Serves the emulator until SIGINT or SIGTERM, then closes it: resolves to 0. Failing to
 * start (port in use, bad seed) throws; the runner turns it into exit 1.
 */
export async function runEmulator(options: EmulatorFlags, io: CommandIo): Promise<ExitCode> {
  // Handlers go in before the server starts, so a signal during start-up also stops it
  // cleanly; a second signal while closing is ignored rather than killing the process.
  let signalled: (signal: NodeJS.Signals) => void = () => {};
  const stopped = new Promise<NodeJS.Signals>((resolve) => {
    signalled = resolve;
  });
  const onSignal = (signal: NodeJS.Signals) => signalled(signal);
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    if (options.rateLimitEvery > 0 && options.rateLimitBurst > options.rateLimitEvery) {
      throw new UsageError(
        `--rate-limit-burst ${options.rateLimitBurst} is more than --rate-limit-every ${options.rateLimitEvery}: a burst is the last requests of every --rate-limit-every; lower it or raise --rate-limit-every.`,
      );
    }
    const running = await startEmulator({
      host: options.host,
      port: options.port,
      dataFile: options.data,
      seed: options.seed,
      adminToken: options.adminToken,
      // Unset, or set empty (commander keeps an empty variable as ""): the emulator's default.
      ...(options.putStatus ? { putStatus: options.putStatus } : {}),
      ...(options.referenceOperations ? { referenceOperations: options.referenceOperations } : {}),
      behaviour: behaviourFlags(options),
      faults: {
        latencyMs: options.latency,
        jitterMs: options.jitter,
        failRate: options.failRate,
        rateLimitEvery: options.rateLimitEvery,
        rateLimitBurst: options.rateLimitBurst,
        retryAfterSeconds: options.retryAfter,
        resetRate: options.resetRate,
        lostAnswerRate: options.lostAnswerRate,
      },
    });
    // The start-up line is the whole of stdout, and whoever started us waits for it.
    io.releaseStdout?.();
    io.stdout.write(startedLine(running, options));
    const signal = await stopped;
    io.stderr.write(`emulator: ${signal} received, stopping\n`);
    await running.close();
    return ExitCode.Ok;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
