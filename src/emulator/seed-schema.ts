import { z } from "zod";
import {
  DateOrDateTime,
  INCIDENT_NAME_MAX,
  IncidentStatus,
  MAINTENANCE_WINDOW_FIELDS,
  MaintenanceUpdateRequest,
  RepeatUnit,
  Severity,
} from "../api/schemas";
import { Behaviour } from "./behaviour";
import { DURATION_PATTERN, RELATIVE_TIME_PATTERN } from "./time";

/**
 * The seed file: accounts with their keys, services, incidents, heartbeats, checks' names and
 * check results. Written by people, so every object is strict (a misspelt key is an error).
 * See examples/seed/demo.yaml.
 */

const Id = z.string().min(1, "must not be empty");

/**
 * `now`, a relative time (`-2h`, `-3d4h`, `+15m`), or an ISO 8601 date-time with an offset
 * or a plain date. Each form is a pattern or format in the JSON Schema, so generated
 * documents (OpenAPI) say exactly what is accepted; `resolveInstant` reads them.
 */
export const SeedInstant = z.union(
  [z.literal("now"), z.string().regex(RELATIVE_TIME_PATTERN, { abort: true }), DateOrDateTime],
  {
    error:
      "must be an ISO 8601 date-time with an offset (2026-11-03T10:00:00Z), a date (2026-11-03), `now`, or a relative time such as -2h or -3d",
  },
);

/** A duration such as `30s`, `15m`, `1h30m` or `1d` (see `DURATION_PATTERN`). */
export const SeedDuration = z.string().regex(DURATION_PATTERN, {
  error: "must be a duration such as 30s, 15m, 1h30m or 1d (at most four parts of four digits)",
});

export const SeedService = z.strictObject({ id: Id, name: z.string().min(1) });

/** A card of a status page: a named group of the account's services. */
export const SeedStatusPageCard = z.strictObject({
  name: z.string().min(1),
  /** Service ids of this account, in the order the card shows them. */
  services: z.array(Id).default([]),
});

/** A status page: its name, its address (`url`, the subdomain; `customDomain`) and its cards. */
export const SeedStatusPage = z.strictObject({
  id: Id,
  name: z.string().min(1),
  url: z.string().min(1),
  customDomain: z.string().min(1).nullable().optional(),
  cards: z.array(SeedStatusPageCard).default([]),
  /** How many subscribers it has (`subscriber-<n>@example.com`), as its subscriptions list shows. */
  subscribers: z.int().min(0).max(100_000).optional(),
});

export const SeedIncidentUpdate = z.strictObject({
  description: z.string().min(1),
  status: IncidentStatus.optional(),
  created_at: SeedInstant.optional(),
  notifySubscribers: z.boolean().optional(),
});

export const SeedIncident = z.strictObject({
  id: Id,
  name: z.string().min(1).max(INCIDENT_NAME_MAX),
  severity: Severity,
  /** Defaults to the status of the latest update that has one, else INVESTIGATING. */
  lastUpdateStatus: IncidentStatus.optional(),
  /** Service ids of this account. */
  services: z.array(Id).min(1),
  duration: z.int().nullable().optional(),
  /** Defaults to the earliest update, else the time the seed is loaded. */
  created_at: SeedInstant.optional(),
  updates: z.array(SeedIncidentUpdate).default([]),
});

export const SeedPing = z.strictObject({
  at: SeedInstant,
  ok: z.boolean(),
  source: z.string().optional(),
  userAgent: z.string().optional(),
});

export const SeedHeartbeat = z.strictObject({
  checkId: Id,
  name: z.string().optional(),
  /**
   * Expected time between pings: a longer silence makes the heartbeat GRACE, and LATE past
   * the grace; a ping within half of it is EARLY (see `deriveEvents`).
   */
  period: SeedDuration.optional(),
  grace: SeedDuration.optional(),
  pings: z.array(SeedPing).default([]),
});

/**
 * A check's name, as the checks list shows it: an API check's (its results are
 * `checkResults`), or a heartbeat's when `heartbeats` does not name it.
 */
export const SeedCheck = z.strictObject({ id: Id, name: z.string().min(1) });

export const SeedCheckResult = z.strictObject({
  checkId: Id,
  at: SeedInstant,
  /** The error message of a failed result; `null` for a passing one. */
  error: z.string().nullable(),
});

/** Many distinct synthetic error groups for one check, for load tests. */
export const SeedGeneratedErrorGroups = z.strictObject({
  checkId: Id,
  count: z.int().min(1).max(100_000),
});

/** An update of a seeded maintenance, posted at `created_at` (default: when the seed is loaded). */
export const SeedMaintenanceUpdate = MaintenanceUpdateRequest.extend({
  created_at: SeedInstant.optional(),
});

/** A seeded maintenance: the updates of the window's k-th maintenance, for the k-th entry. */
export const SeedMaintenance = z.strictObject({
  updates: z.array(SeedMaintenanceUpdate).default([]),
});

/**
 * A maintenance window, with the fields of the API's create (times as a seed writes them, and
 * `repeatUnit` null by default), and the updates of its maintenances in order.
 */
export const SeedMaintenanceWindow = z.strictObject({
  ...MAINTENANCE_WINDOW_FIELDS,
  startsAt: SeedInstant,
  endsAt: SeedInstant,
  repeatUnit: RepeatUnit.nullable().default(null),
  occurrences: z.array(SeedMaintenance).default([]),
});
export type SeedMaintenanceWindow = z.output<typeof SeedMaintenanceWindow>;

export const SeedAccount = z.strictObject({
  id: Id,
  apiKeys: z.array(z.string().min(1)).min(1),
  services: z.array(SeedService).default([]),
  statusPages: z.array(SeedStatusPage).default([]),
  incidents: z.array(SeedIncident).default([]),
  heartbeats: z.array(SeedHeartbeat).default([]),
  checks: z.array(SeedCheck).default([]),
  checkResults: z.array(SeedCheckResult).default([]),
  generatedErrorGroups: z.array(SeedGeneratedErrorGroups).default([]),
  /** Maintenance windows, made as the API makes them (their numbers in seed order). */
  maintenanceWindows: z.array(SeedMaintenanceWindow).default([]),
});

export const SeedFile = z.strictObject({
  accounts: z.array(SeedAccount),
  /** Where the service's behaviour is unknown, the emulator's choice (see behaviour.ts). */
  behaviour: Behaviour.partial().optional(),
});
/** A seed file as written (defaults not yet applied). */
export type SeedFile = z.input<typeof SeedFile>;
/** A validated seed file. */
export type ParsedSeedFile = z.output<typeof SeedFile>;

/** Problems that zod cannot see: references between entries and duplicates. */
export function crossCheckSeed(seed: ParsedSeedFile): { path: PropertyKey[]; message: string }[] {
  const problems: { path: PropertyKey[]; message: string }[] = [];
  const accountIds = new Map<string, number>();
  const keyOwners = new Map<string, string>();
  seed.accounts.forEach((account, a) => {
    if (accountIds.has(account.id)) {
      problems.push({ path: ["accounts", a, "id"], message: `duplicate account id ${account.id}` });
    }
    accountIds.set(account.id, a);
    account.apiKeys.forEach((key, k) => {
      const owner = keyOwners.get(key);
      if (owner !== undefined && owner !== account.id) {
        problems.push({
          path: ["accounts", a, "apiKeys", k],
          message: `this API key already belongs to account ${owner}; a key belongs to one account`,
        });
      }
      keyOwners.set(key, account.id);
    });
    const services = new Set(account.services.map((service) => service.id));
    const unknownService = (serviceId: string) =>
      `service ${serviceId} is not declared under services of account ${account.id} (declared: ${[...services].join(", ") || "none"})`;
    const pageIds = new Set<string>();
    account.statusPages.forEach((page, p) => {
      if (pageIds.has(page.id)) {
        problems.push({
          path: ["accounts", a, "statusPages", p, "id"],
          message: `duplicate status page id ${page.id}`,
        });
      }
      pageIds.add(page.id);
      page.cards.forEach((card, c) => {
        card.services.forEach((serviceId, s) => {
          if (!services.has(serviceId)) {
            problems.push({
              path: ["accounts", a, "statusPages", p, "cards", c, "services", s],
              message: unknownService(serviceId),
            });
          }
        });
      });
    });
    const checkIds = new Set<string>();
    account.checks.forEach((check, c) => {
      if (checkIds.has(check.id)) {
        problems.push({
          path: ["accounts", a, "checks", c, "id"],
          message: `duplicate check id ${check.id}`,
        });
      }
      checkIds.add(check.id);
    });
    const incidentIds = new Set<string>();
    account.incidents.forEach((incident, i) => {
      if (incidentIds.has(incident.id)) {
        problems.push({
          path: ["accounts", a, "incidents", i, "id"],
          message: `duplicate incident id ${incident.id}`,
        });
      }
      incidentIds.add(incident.id);
      incident.services.forEach((serviceId, s) => {
        if (!services.has(serviceId)) {
          problems.push({
            path: ["accounts", a, "incidents", i, "services", s],
            message: unknownService(serviceId),
          });
        }
      });
    });
  });
  return problems;
}
