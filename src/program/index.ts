export { programClient } from "./client";
export { type ProgramConfig, projectDirectory, readProgramConfig } from "./config";
export { type DeclaredIncident, type DeclareOptions, declareIncidents } from "./declare";
export { loadProgramDefinitions } from "./definitions";
export { type IncidentOutputs, incidentOutputs, incidentReadBack } from "./incident-outputs";
export type {
  DriftEntry,
  HeartbeatSummary,
  IncidentOutput,
  LiveCount,
  StackOutputs,
  SummaryOutput,
} from "./outputs";
export * from "./read-backs";
export { declareIncidentStack, type IncidentStack, type IncidentStackOptions } from "./stack";
export { formatSummary } from "./summary";
