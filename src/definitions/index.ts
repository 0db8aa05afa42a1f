export {
  describeBackend,
  fileBackendStacks,
  isSelfManagedBackend,
  SELF_MANAGED_ORGANIZATION,
  selfManagedNameProblem,
} from "./backend";
export { CATALOG_FILES, isCatalogFile, readServiceNames, ServiceCatalog } from "./catalog";
export { loadDefinitionObjects } from "./code-source";
export { type GitDefinitions, GitSourceError, readDefinitionsAtRef } from "./git-source";
export { InvalidDefinitionsError } from "./invalid-definitions-error";
export {
  CATALOG_JSON_SCHEMA_PATH,
  definitionJsonSchema,
  definitionJsonSchemaText,
  JSON_SCHEMA_PATH,
  jsonSchemaFiles,
} from "./json-schema";
export {
  definitionKind,
  KINDS,
  type Kind,
  MAINTENANCE_NOT_APPLIED,
  unappliedMaintenance,
} from "./kind";
export { unknownServiceMessage, unknownServices } from "./known-services";
export {
  isDefinitionFile,
  type LoadDefinitionsOptions,
  type LoadResult,
  loadDefinitionSources,
  loadDefinitions,
} from "./load";
export {
  MaintenanceDefinition,
  MaintenanceUpdate,
} from "./maintenance-schema";
export { parseDefinitionFile } from "./parse-file";
export type {
  CatalogService,
  LoadedDefinition,
  LoadedMaintenance,
  ParsedFile,
  SourceFile,
} from "./parsed-file";
export type { Position } from "./position";
export {
  compareProblems,
  type DefinitionProblem,
  formatLocation,
  formatProblem,
  type ProblemCode,
} from "./problem";
export { DefinitionService, Evidence, StackName } from "./references";
export { IncidentDefinition, type IncidentDefinitionInput, OnRemove } from "./schema";
export {
  backendStacks,
  type KnownStacks,
  type ProjectInfo,
  projectOf,
  stackFilesOf,
  unknownStackEntries,
} from "./stack-entries";
export {
  bareStackName,
  belongsToStack,
  parseStackName,
  STACK_NAME_PATTERN,
  STACK_NAME_RULE,
  type StackRef,
  sameStack,
  standInStack,
} from "./stack-name";
