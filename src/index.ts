/**
 * The public surface of the incident-sync package, for Pulumi programs that reuse its parts:
 * `import { Incident, declareIncidents } from "incident-sync"`.
 */
export {
  Incident,
  type IncidentArgs,
  type IncidentInputs,
  type IncidentService,
  type IncidentState,
  PROVIDER_VERSION,
} from "../providers/incident";
export * from "./incident";
export * from "./program";
