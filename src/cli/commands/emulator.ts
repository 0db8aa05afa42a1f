import { Command, InvalidArgumentError, Option } from "commander";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { ExitCode } from "../exit-codes";
import { formatOption } from "../format";

export const EMULATOR_FORMATS = ["text", "json"] as const;

function integer(name: string, min: number, max: number) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!/^\d+$/.test(value) || parsed < min || parsed > max) {
      throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}.`);
    }
    return parsed;
  };
}

function rate(name: string) {
  return (value: string): number => {
    const parsed = Number(value);
    if (value.trim() === "" || !Number.isFinite(parsed) || parsed < 0 || parsed > 1) {
      throw new InvalidArgumentError(`${name} must be a number from 0 to 1, e.g. 0.1 for 10 %.`);
    }
    return parsed;
  };
}

interface EmulatorCommandOptions {
  host: string;
  port: number;
  data?: string;
  seed: string;
  adminToken?: string;
  latency: number;
  jitter: number;
  failRate: number;
  rateLimitEvery: number;
  retryAfter: number;
  resetRate: number;
  format: (typeof EMULATOR_FORMATS)[number];
}

/** The line printed once the server listens; the key shown is the seed's demo key. */
export function startedLine(running: RunningEmulator, options: EmulatorCommandOptions): string {
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

async function run(options: EmulatorCommandOptions): Promise<void> {
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
    const running = await startEmulator({
      host: options.host,
      port: options.port,
      dataFile: options.data,
      seed: options.seed,
      adminToken: options.adminToken,
      faults: {
        latencyMs: options.latency,
        jitterMs: options.jitter,
        failRate: options.failRate,
        rateLimitEvery: options.rateLimitEvery,
        retryAfterSeconds: options.retryAfter,
        resetRate: options.resetRate,
      },
    });
    process.stdout.write(startedLine(running, options));
    const signal = await stopped;
    process.stderr.write(`emulator: ${signal} received, stopping\n`);
    await running.close();
    process.exitCode = ExitCode.Ok;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

/** `incident-sync emulator`: the local monitoring API for tests, demos and `npm start`. */
export function emulatorCommand(): Command {
  return new Command("emulator")
    .description(
      "Run the local emulator of the monitoring API (the five operations, a control API and /openapi.json) on loopback.",
    )
    .option("--host <host>", "interface to listen on", "127.0.0.1")
    .option("--port <port>", "port; 0 picks a free one", integer("--port", 0, 65_535), 4010)
    .option("--data <file>", "SQLite file that keeps the data across restarts (default: in memory)")
    .option("--seed <file|demo>", "YAML/JSON seed, applied once to a new database", "demo")
    .addOption(
      new Option(
        "--admin-token <token>",
        "Bearer token of the control API (default: random, printed)",
      ).env("EMULATOR_ADMIN_TOKEN"),
    )
    .option(
      "--latency <ms>",
      "fixed delay added to each API response",
      integer("--latency", 0, 60_000),
      0,
    )
    .option("--jitter <ms>", "random extra delay, 0..ms", integer("--jitter", 0, 60_000), 0)
    .option("--fail-rate <0..1>", "share of API requests answered 503", rate("--fail-rate"), 0)
    .option(
      "--rate-limit-every <n>",
      "answer every nth API request 429 with Retry-After (0: off)",
      integer("--rate-limit-every", 0, 1_000_000),
      0,
    )
    .option(
      "--retry-after <s>",
      "Retry-After of 429 and 503 answers",
      integer("--retry-after", 0, 3_600),
      1,
    )
    .option(
      "--reset-rate <0..1>",
      "share of API requests whose connection is reset",
      rate("--reset-rate"),
      0,
    )
    .addOption(formatOption(EMULATOR_FORMATS, "text", "format of the start-up line"))
    .addHelpText(
      "after",
      `
Prints one line with the URL, the demo API key and account, then serves until SIGINT or
SIGTERM (exit 0). Exit 1 when it cannot start (port in use, bad seed, unreadable data file).
Faults apply to /v1 only, never to /_control or /openapi.json.

Examples:
  $ incident-sync emulator
  $ incident-sync emulator --port 0 --format json
  $ incident-sync emulator --data .emulator.db --seed examples/seed/demo.yaml
  $ incident-sync emulator --latency 50 --jitter 100 --fail-rate 0.05 --rate-limit-every 20

  Then, with the printed key:
  $ curl -H 'Authorization: Bearer demo-key' http://127.0.0.1:4010/v1/error-groups/checks/chk-api`,
    )
    .action(async (options: EmulatorCommandOptions) => {
      await run(options);
    });
}
