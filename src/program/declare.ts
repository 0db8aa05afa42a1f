import * as pulumi from "@pulumi/pulumi";
import { Incident } from "../../providers/incident";
import { incidentInputsOf } from "../../providers/incident-operations";
import type { MonitoringClient } from "../api";
import type { LoadedDefinition } from "../definitions";
import {
  type DriftEntry,
  driftOf,
  readBack,
  readErrorGroups,
  readHeartbeat,
  updateTime,
} from "./read-backs";

/** One `Incident` resource per definition, named by its `resource` (default: its id). */
export function declareIncidents(
  definitions: readonly LoadedDefinition[],
  opts?: pulumi.CustomResourceOptions,
): Incident[] {
  return definitions.map(
    ({ definition }) => new Incident(definition.resource, incidentInputsOf(definition), opts),
  );
}

/**
 * The stack outputs. Incident updates and drift are read once the incident is applied (they
 * wait for its `appliedAt`), so they describe the status page after this run; heartbeats and
 * error groups do not depend on the incidents and are read straight away.
 */
export function incidentOutputs(
  definitions: readonly LoadedDefinition[],
  incidents: readonly Incident[],
  client: pulumi.Output<MonitoringClient>,
) {
  const updates = incidents.map((incident, index) => {
    const id = definitions[index]?.definition.id ?? "";
    return readBack(
      pulumi.all([client, incident.appliedAt]).apply(([c]) => c),
      async (c) =>
        (await c.incidents.listUpdates(id)).sort((a, b) => updateTime(b) - updateTime(a)),
    );
  });

  const incidentsOut = pulumi
    .all(
      incidents.map((incident) =>
        pulumi
          .all([
            incident.incidentId,
            incident.name,
            incident.severity,
            incident.status,
            incident.services,
            incident.appliedAt,
          ])
          .apply(([id, name, severity, status, services, appliedAt]) => ({
            id,
            name,
            severity,
            status,
            services,
            appliedAt,
          })),
      ),
    )
    .apply((list) => Object.fromEntries(list.map((item) => [item.id, item])));

  const incidentUpdates = pulumi
    .all(updates)
    .apply((lists) =>
      Object.fromEntries(
        lists.map((list, index) => [definitions[index]?.definition.id ?? "", list]),
      ),
    );

  const drift = pulumi
    .all(
      incidents.map((incident, index) =>
        pulumi
          .all([incident.status, incident.appliedAt, updates[index] ?? pulumi.output([])])
          .apply(([status, appliedAt, list]) => {
            const definition = definitions[index]?.definition;
            if (!definition) return undefined;
            return driftOf(definition.id, definition.status, status, appliedAt, list);
          }),
      ),
    )
    .apply((entries) => entries.filter((entry): entry is DriftEntry => entry !== undefined));

  const heartbeatIds = unique(definitions.flatMap((d) => d.definition.evidence?.heartbeats ?? []));
  const checkIds = unique(definitions.flatMap((d) => d.definition.evidence?.checks ?? []));
  const now = new Date();
  const heartbeats = readBack(client, async (c) =>
    Object.fromEntries(
      await Promise.all(heartbeatIds.map(async (id) => [id, await readHeartbeat(c, id, now)])),
    ),
  );
  const errorGroups = readBack(client, async (c) =>
    Object.fromEntries(
      await Promise.all(checkIds.map(async (id) => [id, await readErrorGroups(c, id)])),
    ),
  );

  return { incidents: incidentsOut, incidentUpdates, heartbeats, errorGroups, drift };
}

function unique(ids: readonly string[]): string[] {
  return [...new Set(ids)].sort();
}
