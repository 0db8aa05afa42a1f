export { engineEnvironment } from "./engine-environment";
export { EngineLocation, type ResolveEngineOptions, resolveEngine } from "./engine-location";
export {
  type ConfigEntry,
  type EnginePreviewResult,
  type EngineRunResult,
  type EngineStack,
  type EngineStackOptions,
  type EngineUpResult,
  openEngineStack,
  type PreviewOptions,
  type RefreshOptions,
} from "./engine-stack";
export { EngineError, EngineOperationError } from "./errors";
export { programFromModule } from "./program-module";
export { findRepoRoot } from "./repo-root";
