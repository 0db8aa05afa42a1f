export { programClient } from "./client";
export { type ProgramConfig, projectDirectory, readProgramConfig } from "./config";
export {
  type DeclaredIncident,
  type DeclareOptions,
  type DriftEntry,
  declareIncidents,
  type IncidentOutput,
  incidentOutputs,
  incidentReadBack,
} from "./declare";
export { loadProgramDefinitions } from "./definitions";
export * from "./read-backs";
export { declareIncidentStack, type IncidentStack, type IncidentStackOptions } from "./stack";
export { formatSummary } from "./summary";
