import type { IncidentStep } from "../../../src/engine/engine-events";
import type { StackRunResult } from "../../../src/engine/stack-run";

/** The type of an incident in a stack's state. */
export const INCIDENT_TYPE = "pulumi-nodejs:dynamic/incident-sync:Incident";

/** The URN of the incident `name` in stack `dev` of project `incidents`. */
export const incidentUrn = (name: string) => `urn:pulumi:dev::incidents::${INCIDENT_TYPE}::${name}`;

/** An `up` that took a second and did `incidents`, as the engine's event log tells it. */
export function upRun(incidents: IncidentStep[]): StackRunResult {
  return {
    operation: "up",
    incidents,
    diagnostics: [],
    changes: {},
    durationSeconds: 1,
    ok: true,
    exitCode: 0,
    changed: incidents.length > 0,
    durationMs: 1_000,
    stdout: "",
    stderr: "",
  };
}
