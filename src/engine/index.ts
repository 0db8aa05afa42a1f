export { engineEnvironment } from "./engine-environment";
export type { IncidentStep } from "./engine-events";
export { EngineLocation } from "./engine-location";
export { EngineError } from "./errors";
export {
  EMULATOR_STACK,
  LOCAL_DEMO_PASSPHRASE,
  type MainJobResult,
  mainJobState,
  runMainJob,
} from "./main-job";
export {
  type CancelResult,
  type ConfigEntry,
  exportProjectStack,
  openProjectStack,
  type ProjectStack,
  type ProjectStackOptions,
  type StackExport,
  type StackRunResult,
} from "./project-stack";
export { type ResolveEngineOptions, resolveEngine } from "./resolve-engine";
export {
  type OperationOptions,
  type OperationOutcome,
  type ProgramConnection,
  runOperation,
} from "./run-operation";
export { describeLock, type StackLock, stackLocks } from "./stack-locks";
