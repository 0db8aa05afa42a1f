import { readFileSync } from "node:fs";
import { LineCounter, parseDocument } from "yaml";
import type { IncidentStatus } from "../api/schemas";
import { UserError } from "../user-error";
import type { MaintenanceOccurrences } from "./behaviour";
import { transaction } from "./database";
import { ErrorResponse } from "./http-error";
import { demoSeedPath } from "./package-root";
import {
  crossCheckSeed,
  type ParsedSeedFile,
  SeedFile,
  type SeedMaintenanceWindow,
} from "./seed-schema";
import type { Stores } from "./store";
import { parseSeedDuration, resolveInstant } from "./time";

/** A seed file that cannot be read or does not match the seed format; lists every problem. */
export class SeedError extends UserError {
  override name = "SeedError";
  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(
      `seed from ${source} is not valid (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n${problems.map((problem) => `  - ${problem}`).join("\n")}\nSee examples/seed/demo.yaml for the format.`,
    );
  }
}

type Locate = (path: readonly PropertyKey[]) => string;

function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`))
    .join("")
    .replace(/^\./, "");
}

/** Validates seed data; `locate` turns a path into `file:line` for messages. */
export function parseSeed(input: unknown, source: string, locate?: Locate): ParsedSeedFile {
  const where = (path: readonly PropertyKey[]) =>
    [locate?.(path), path.length > 0 ? formatPath(path) : "(top level)"]
      .filter((part) => part !== undefined)
      .join(" ");
  const result = SeedFile.safeParse(input);
  if (!result.success) {
    throw new SeedError(
      source,
      result.error.issues.map((issue) => `${where(issue.path)}: ${issue.message}`),
    );
  }
  const problems = crossCheckSeed(result.data);
  if (problems.length > 0) {
    throw new SeedError(
      source,
      problems.map((problem) => `${where(problem.path)}: ${problem.message}`),
    );
  }
  return result.data;
}

/** Resolves `demo` to the bundled demo seed; any other value is a path. */
export function resolveSeedPath(seed: string): string {
  return seed === "demo" ? demoSeedPath() : seed;
}

/** Reads and validates a YAML or JSON seed file (YAML is a superset of JSON). */
export function loadSeedFile(seed: string): ParsedSeedFile {
  const path = resolveSeedPath(seed);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SeedError(path, [`cannot read the file: ${reason}`]);
  }
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: true });
  if (document.errors.length > 0) {
    throw new SeedError(
      path,
      document.errors.map((error) => {
        const position = error.linePos?.[0];
        return `${path}${position ? `:${position.line}:${position.col}` : ""}: ${error.message.split("\n")[0]}`;
      }),
    );
  }
  const locate: Locate = (at) => {
    for (let length = at.length; length >= 0; length--) {
      const node = document.getIn(at.slice(0, length), true);
      if (node !== null && typeof node === "object" && "range" in node) {
        const range = node.range as [number, number, number] | undefined;
        if (range) return `${path}:${lineCounter.linePos(range[0]).line}`;
      }
    }
    return path;
  };
  return parseSeed(document.toJS(), path, locate);
}

/**
 * Writes a validated seed into the stores in one transaction. Relative times resolve
 * against `nowMs`. Accounts, services, status pages, incidents and checks' names are upserted by
 * id (a page's cards are replaced); updates, pings and check results are appended.
 */
export function applySeed(
  stores: Stores,
  seed: ParsedSeedFile,
  nowMs: number,
  occurrences: MaintenanceOccurrences,
): void {
  const now = new Date(nowMs);
  const at = (text: string | undefined, fallback: number) =>
    text === undefined ? fallback : (resolveInstant(text, now) ?? fallback);
  transaction(stores.db, () => {
    for (const account of seed.accounts) {
      stores.accounts.ensureAccount(account.id, nowMs);
      for (const key of account.apiKeys) stores.accounts.addApiKey(account.id, key);
      for (const service of account.services) {
        stores.services.upsert(account.id, service.id, service.name, nowMs);
      }
      for (const page of account.statusPages) {
        stores.statusPages.upsert(
          account.id,
          {
            id: page.id,
            name: page.name,
            url: page.url,
            customDomain: page.customDomain ?? null,
            cards: page.cards.map((card) => ({ name: card.name, serviceIds: card.services })),
            subscribers: page.subscribers,
          },
          nowMs,
        );
      }
      for (const incident of account.incidents) {
        const updates = incident.updates.map((update) => ({
          ...update,
          atMs: at(update.created_at, nowMs),
        }));
        const byTime = [...updates].sort((x, y) => x.atMs - y.atMs);
        const latestStatus = byTime.filter((update) => update.status !== undefined).at(-1)?.status;
        stores.incidents.upsert(account.id, {
          id: incident.id,
          name: incident.name,
          severity: incident.severity,
          lastUpdateStatus:
            incident.lastUpdateStatus ?? latestStatus ?? ("INVESTIGATING" satisfies IncidentStatus),
          serviceIds: incident.services,
          duration: incident.duration ?? null,
          createdMs: at(incident.created_at, byTime[0]?.atMs ?? nowMs),
        });
        for (const update of byTime) stores.updates.insert(account.id, incident.id, update);
      }
      for (const heartbeat of account.heartbeats) {
        stores.accounts.ensureCheck(account.id, heartbeat.checkId, "heartbeat", heartbeat.name);
        stores.accounts.setHeartbeatSettings(account.id, heartbeat.checkId, {
          periodMs:
            heartbeat.period === undefined ? null : (parseSeedDuration(heartbeat.period) ?? null),
          graceMs: heartbeat.grace === undefined ? 0 : (parseSeedDuration(heartbeat.grace) ?? 0),
        });
        for (const ping of heartbeat.pings) {
          stores.heartbeats.recordPing(account.id, heartbeat.checkId, {
            ...ping,
            atMs: at(ping.at, nowMs),
          });
        }
      }
      // After the heartbeats, so a name given here keeps a heartbeat a heartbeat.
      for (const check of account.checks) {
        stores.accounts.ensureCheck(account.id, check.id, "api", check.name);
      }
      for (const result of account.checkResults) {
        stores.errorGroups.record(account.id, result.checkId, {
          atMs: at(result.at, nowMs),
          error: result.error,
        });
      }
      for (const generated of account.generatedErrorGroups) {
        stores.errorGroups.generate(account.id, generated.checkId, generated.count, nowMs);
      }
      account.maintenanceWindows.forEach((window, w) => {
        seedMaintenanceWindow(stores, account.id, window, w, now, occurrences);
      });
    }
  });
}

/** A seeded window, made as the API's create makes it, and the updates of its maintenances. */
function seedMaintenanceWindow(
  stores: Stores,
  accountId: string,
  window: SeedMaintenanceWindow,
  index: number,
  now: Date,
  occurrences: MaintenanceOccurrences,
): void {
  const where = `accounts.${accountId}.maintenanceWindows[${index}]`;
  const instant = (text: string) => new Date(resolveInstant(text, now) ?? now.getTime());
  const { occurrences: seeded, ...fields } = window;
  const startsAt = instant(fields.startsAt);
  const endsAt = instant(fields.endsAt);
  if (endsAt <= startsAt)
    throw new SeedError("the seed", [`${where}.endsAt: must be after startsAt`]);
  const body = { ...fields, startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString() };
  let made: { id: number; maintenanceIds: string[] };
  try {
    made = stores.maintenanceWindows.seed(accountId, body, now.getTime(), occurrences);
  } catch (error) {
    if (error instanceof ErrorResponse)
      throw new SeedError("the seed", [`${where}: ${error.message}`]);
    throw error;
  }
  if (seeded.length > made.maintenanceIds.length) {
    throw new SeedError("the seed", [
      `${where}.occurrences: ${seeded.length} given, and the window has ${made.maintenanceIds.length} maintenance(s) now`,
    ]);
  }
  seeded.forEach((maintenance, k) => {
    const maintenanceId = made.maintenanceIds[k] as string;
    for (const update of maintenance.updates) {
      stores.maintenanceWindows.seedUpdate(
        accountId,
        maintenanceId,
        {
          status: update.status,
          description: update.description,
          notifySubscribers: update.notifySubscribers === true,
        },
        update.created_at === undefined ? now.getTime() : instant(update.created_at).getTime(),
      );
    }
  });
}
