export { programClient } from "./client";
export { type ProgramConfig, readProgramConfig } from "./config";
export { declareIncidents, incidentOutputs } from "./declare";
export { InvalidDefinitionsError, loadProgramDefinitions } from "./definitions";
export * from "./read-backs";
export { changedIncidents, formatSummary } from "./summary";
