// First: says which optional packages to install before any module below loads hono.
import "./optional-packages";

export {
  BEHAVIOUR_ENV,
  Behaviour,
  DEFAULT_BEHAVIOUR,
  PUT_STATUS_ENV,
  PutStatus,
  parseRateWindow,
} from "./behaviour";
export type { ClockMove, ClockReading } from "./clock";
export type { EmulatorControl, Instant } from "./control";
export type { MaintenanceNotice } from "./control-schemas";
export { createEmulator, type Emulator, type EmulatorOptions } from "./create-emulator";
export { cleanErrorMessage, errorHash } from "./error-cleaning";
export { ConnectionResetFault, Faults, type ResolvedFaults } from "./faults";
export { demoSeedPath } from "./package-root";
export type { OperationStats, RequestStats } from "./request-stats";
export { SeedError } from "./seed";
export type { SeedFile } from "./seed-schema";
export { type RunningEmulator, type StartEmulatorOptions, startEmulator } from "./server";
