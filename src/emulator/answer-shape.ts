import type {
  ErrorGroup,
  HeartbeatEventsResponse,
  IncidentList,
  IncidentResponse,
  IncidentUpdate,
  Service,
  ServiceList,
  StatusPage,
  StatusPageList,
} from "../api/schemas";
import type { Behaviour } from "./behaviour";

/*
 * The last step of every public answer: the order of its lists (`listOrder`) and, for `lean`
 * answers, only the fields the service's contract promises (service-contract.md "Responses"):
 * an incident's `updated_at` and `duration`, a service's times, an update's every field but
 * `description` (`id` and `created_at` too in an incident's embedded list), an events result's
 * `events` and `stats`, an error group's `rootCauseAnalyses`, and a status page's all but
 * `id`, `name`, `url`, `customDomain` and `cards` are left out.
 */

type Shaping = Pick<Behaviour, "listOrder" | "answers">;

function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Pick<T, K> {
  const kept: Partial<Pick<T, K>> = {};
  for (const key of keys) if (value[key] !== undefined) kept[key] = value[key];
  return kept as Pick<T, K>;
}

function ordered<T>(items: readonly T[], shaping: Shaping): T[] {
  return shaping.listOrder === "oldest-first" ? [...items].reverse() : [...items];
}

/** The 100 latest updates of an incident (4.2), or one update. */
export function shapeUpdates(updates: readonly IncidentUpdate[], shaping: Shaping) {
  return ordered(updates, shaping).map((update) => shapeUpdate(update, shaping));
}

export function shapeUpdate(update: IncidentUpdate, shaping: Shaping): Partial<IncidentUpdate> {
  return shaping.answers === "lean" ? pick(update, ["description"]) : update;
}

/** An incident as a PUT, a GET, a create or the list answers it. */
export function shapeIncident(incident: IncidentResponse, shaping: Shaping) {
  const updates = ordered(incident.incidentUpdates, shaping);
  if (shaping.answers === "full") return { ...incident, incidentUpdates: updates };
  return {
    ...pick(incident, ["id", "name", "severity", "lastUpdateStatus", "created_at"]),
    services: incident.services.map((service) => shapeService(service, shaping)),
    incidentUpdates: updates.map((update) => pick(update, ["description", "id", "created_at"])),
  };
}

/** A create's answer: the incident, with its updates as `createAnswer` leaves them. */
export function shapeCreated(
  incident: IncidentResponse,
  shaping: Shaping & Pick<Behaviour, "createAnswer">,
) {
  const shaped = shapeIncident(incident, shaping);
  if (shaping.createAnswer === "without-updates") return { ...shaped, incidentUpdates: [] };
  if (shaping.createAnswer === "full") return shaped;
  const updates = shaped.incidentUpdates.map(({ id: _id, ...update }) => update);
  return { ...shaped, incidentUpdates: updates };
}

export function shapeIncidentList(list: IncidentList, shaping: Shaping) {
  return { ...list, entries: list.entries.map((entry) => shapeIncident(entry, shaping)) };
}

/** A service, alone, in a list, in an incident or on a card. */
export function shapeService(service: Service, shaping: Shaping): Partial<Service> {
  return shaping.answers === "full" ? service : pick(service, ["id", "name", "accountId"]);
}

export function shapeServiceList(list: ServiceList, shaping: Shaping) {
  return { ...list, entries: list.entries.map((entry) => shapeService(entry, shaping)) };
}

export function shapeStatusPage(page: StatusPage, shaping: Shaping) {
  const cards = page.cards.map((card) => ({
    ...(shaping.answers === "full" ? card : pick(card, ["id", "name"])),
    services: card.services.map((service) => shapeService(service, shaping)),
  }));
  if (shaping.answers === "full") return { ...page, cards };
  return { ...pick(page, ["id", "name", "url", "customDomain"]), cards };
}

export function shapeStatusPageList(list: StatusPageList, shaping: Shaping) {
  return { ...list, entries: list.entries.map((entry) => shapeStatusPage(entry, shaping)) };
}

/** The events answer: its events are listed in `listOrder` by the store already. */
export function shapeEvents(response: HeartbeatEventsResponse, shaping: Shaping) {
  return shaping.answers === "lean" ? response.map(() => ({})) : response;
}

export function shapeErrorGroup(group: ErrorGroup, shaping: Shaping): Partial<ErrorGroup> {
  if (shaping.answers === "full") return group;
  const { rootCauseAnalyses: _analyses, ...lean } = group;
  return lean;
}
