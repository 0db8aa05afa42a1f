export { type GitDefinitions, GitSourceError, readDefinitionsAtRef } from "./git-source";
export { definitionJsonSchema, definitionJsonSchemaText, JSON_SCHEMA_PATH } from "./json-schema";
export {
  isDefinitionFile,
  type LoadDefinitionsOptions,
  type LoadResult,
  loadDefinitionSources,
  loadDefinitions,
} from "./load";
export {
  type LoadedDefinition,
  type ParsedFile,
  parseDefinitionFile,
  type SourceFile,
} from "./parse-file";
export * from "./plan";
export type { Position } from "./position";
export {
  compareProblems,
  type DefinitionProblem,
  formatLocation,
  type ProblemCode,
} from "./problem";
export {
  DefinitionService,
  Evidence,
  IncidentDefinition,
  type IncidentDefinitionInput,
  OnRemove,
} from "./schema";
export { toIncidentRequest } from "./to-request";
