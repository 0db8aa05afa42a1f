import { Command, InvalidArgumentError, Option } from "commander";
import {
  ACCOUNT_HEADERS,
  ANSWERS,
  CREATE_ANSWERS,
  CREATE_DELAY_MAX_MS,
  EDIT_DATES,
  LIST_ORDERS,
  PUT_STATUS_ENV,
  PUT_STATUSES,
  RATE_WINDOW_PATTERN,
  REFERENCE_OPERATIONS,
  UNKNOWN_CHECKS,
} from "../../emulator/behaviour-names";
import { OPTIONAL_PACKAGES, requirePackages } from "../../peer-packages";
import { formatOption } from "../formats";
import { action } from "../run-command";
import type { EmulatorFlags } from "./emulator";

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

/** One of `choices`; an empty value (an unset variable in a CI file) means the default. */
function oneOf<const T extends readonly string[]>(choices: T) {
  return (value: string): T[number] | undefined => {
    if (value === "") return undefined;
    const known = choices.find((choice) => choice === value);
    if (known === undefined) {
      throw new InvalidArgumentError(
        `It must be ${choices.slice(0, -1).join(", ")} or ${choices.at(-1)}.`,
      );
    }
    return known;
  };
}

/** `600/60s` (at most 600 requests per 60 seconds) or `off`. */
function rateWindow(value: string): string {
  if (value === "off" || RATE_WINDOW_PATTERN.test(value)) return value;
  throw new InvalidArgumentError(
    "It must be <requests>/<seconds>s, e.g. 600/60s for 600 requests per minute, or off.",
  );
}

/** `incident-sync emulator`: the local monitoring API for tests, demos and `npm start`. */
export function emulatorCommand(): Command {
  return new Command("emulator")
    .description(
      "Run the local emulator of the monitoring API (the spec's five operations and the reference's incident operations, a control API and /openapi.json) on loopback.",
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
      "--rate-limit-burst <k>",
      "with --rate-limit-every n: answer the last k of every n API requests 429 (a burst)",
      integer("--rate-limit-burst", 1, 1_000_000),
      1,
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
    .option(
      "--lost-answer-rate <0..1>",
      "share of API writes (POST, PUT, DELETE) carried out whose answer is then lost (the connection reset)",
      rate("--lost-answer-rate"),
      0,
    )
    .addOption(
      new Option(
        "--put-status <behaviour>",
        "what a PUT does with lastUpdateStatus, which the service does not document: posts-update (post a status-change update), sets-field (only set the field) or ignores (keep the status it had) (default: posts-update)",
      )
        .argParser(oneOf(PUT_STATUSES))
        .env(PUT_STATUS_ENV),
    )
    .addOption(
      new Option(
        "--list-order <order>",
        "the order of heartbeat events and incident updates, which the spec does not give: newest-first, or oldest-first (an events call's limit then keeps the oldest of the window) (default: newest-first)",
      ).argParser(oneOf(LIST_ORDERS)),
    )
    .addOption(
      new Option(
        "--rate-window <n/Ss>",
        "the service's rate limit: at most n requests per S seconds per API key, the rest answered 429 without Retry-After, e.g. 600/60s (default: off)",
      ).argParser(rateWindow),
    )
    .addOption(
      new Option(
        "--unknown-check <answer>",
        "what the heartbeat events and error-group list answer for a check the account does not have: not-found (404) or empty ([]) (default: not-found)",
      ).argParser(oneOf(UNKNOWN_CHECKS)),
    )
    .addOption(
      new Option(
        "--account-header <rule>",
        "whether x-service-account may be left out (optional) or must be sent, as with a personal API key (required: 401 without it) (default: optional)",
      ).argParser(oneOf(ACCOUNT_HEADERS)),
    )
    .addOption(
      new Option(
        "--answers <shape>",
        "full answers, or lean ones that leave out every field the service's contract does not promise (default: full)",
      ).argParser(oneOf(ANSWERS)),
    )
    .addOption(
      new Option(
        "--create-answer <shape>",
        "what a create answers: the incident in full, without-update-ids, or without-updates (incidentUpdates: []); the incident is made in full either way (default: full)",
      ).argParser(oneOf(CREATE_ANSWERS)),
    )
    .addOption(
      new Option(
        "--create-delay <ms>",
        "how long a create is held before it is carried out and answered; past the client's timeout it is made after the client gave up (default: 0)",
      ).argParser(integer("--create-delay", 0, CREATE_DELAY_MAX_MS)),
    )
    .addOption(
      new Option(
        "--edit-date <rule>",
        "what an update PUT without publicIncidentUpdateDate does to the update's public date: kept, or now (re-dated to the time of the PUT) (default: kept)",
      ).argParser(oneOf(EDIT_DATES)),
    )
    .addOption(
      new Option(
        "--reference-operations <behaviour>",
        "whether the incident operations beyond the spec's excerpt (create, read, list, post and change updates) exist: available, or answered not-found (404) or method-not-allowed (405), as a service with only the excerpt would (default: available)",
      ).argParser(oneOf(REFERENCE_OPERATIONS)),
    )
    .addOption(formatOption(["text", "json"], "text", "format of the start-up line"))
    .addHelpText(
      "after",
      `
Prints one line with the URL, the demo API key and account, then serves until SIGINT or
SIGTERM (exit 0). Exit 1 when it cannot start (port in use, bad seed, unreadable data file).
Faults apply to /v1 only, never to /_control or /openapi.json. Where the service's
behaviour is unknown, the emulator offers each choice (also the seed's behaviour, PATCH
/_control/behaviour and INCIDENT_SYNC_EMULATOR_BEHAVIOUR as JSON): --put-status picks whether a
PUT that changes lastUpdateStatus posts a "Status changed" update, only sets the field or
ignores it; --list-order the order of events and updates; --rate-window a rate limit answered
429 without Retry-After; --unknown-check 404 or [] for a check that does not exist;
--account-header whether the account header is required; --answers full or lean answers;
--create-answer whether a create's answer gives its updates' ids, or its updates at all;
--create-delay how long a create is held before it is made; --edit-date whether an update
changed without its date keeps it or is re-dated to now; --reference-operations whether the service has the operations that create incidents and post
updates. Every update
sent to subscribers is kept: GET /_control/accounts/<account>/notifications. Every /v1 request is
counted by operation and status: GET /_control/stats (DELETE resets it).

Examples:
  $ incident-sync emulator
  $ incident-sync emulator --port 0 --format json
  $ incident-sync emulator --data .emulator.db --seed examples/seed/demo.yaml
  $ incident-sync emulator --latency 50 --jitter 100 --fail-rate 0.05 --rate-limit-every 20
  $ incident-sync emulator --fail-rate 0.2 --reset-rate 0.05 --rate-limit-every 50 --rate-limit-burst 5
  $ incident-sync emulator --put-status sets-field
  $ incident-sync emulator --put-status ignores --list-order oldest-first --answers lean
  $ incident-sync emulator --rate-window 600/60s --unknown-check empty --account-header required
  $ incident-sync emulator --reference-operations not-found
  $ incident-sync emulator --create-answer without-updates --create-delay 12000
  $ incident-sync emulator --edit-date now

  Then, with the printed key:
  $ curl -H 'Authorization: Bearer demo-key' http://127.0.0.1:4010/v1/error-groups/checks/chk-api`,
    )
    .action(
      action<EmulatorFlags>(async (io, flags) => {
        requirePackages("The emulator", OPTIONAL_PACKAGES.emulator);
        const { runEmulator } = await import("./emulator.js");
        return runEmulator(flags, io);
      }),
    );
}
