export { programClient } from "./client";
export { type ProgramConfig, projectDirectory, readProgramConfig } from "./config";
export {
  type DeclaredIncident,
  type DeclareOptions,
  declareIncidents,
  incidentOutputs,
  incidentReadBack,
} from "./declare";
export { loadProgramDefinitions } from "./definitions";
export type { DriftEntry, IncidentOutput } from "./outputs";
export * from "./read-backs";
export { declareIncidentStack, type IncidentStack, type IncidentStackOptions } from "./stack";
export { formatSummary } from "./summary";
