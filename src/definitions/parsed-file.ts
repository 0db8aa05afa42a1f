import type { OmittedProblems } from "./file-problems";
import type { MaintenanceDefinition } from "./maintenance-schema";
import type { Position } from "./position";
import type { DefinitionProblem } from "./problem";
import type { IncidentDefinition } from "./schema";
import type { Utf8Refusal } from "./utf8";

/*
 * A definitions file as read, and what parsing it yields: the vocabulary of parse-file.ts,
 * which picks a parser, and of the parsers it picks (parse-fast.ts and catalog.ts). The
 * catalog's services are named here too, since a parsed file carries them.
 */

/** A definitions file by its path and content; the path is only used in messages. */
export interface SourceFile {
  readonly path: string;
  readonly text: string;
  /** The services catalog (services.yaml) rather than incident definitions. */
  readonly catalog?: boolean | undefined;
  /** Why the file's bytes could not be read as text (not UTF-8), and where: its one problem. */
  readonly refused?: Utf8Refusal | undefined;
}

/** A valid definition and where it was written. */
export interface LoadedDefinition {
  readonly definition: IncidentDefinition;
  readonly file: string;
  /** 1-based index of the YAML document in the file. */
  readonly document: number;
  /** Where the definition starts. */
  readonly at: Position;
  /** Where the `id` value is; absent for a new incident (no id). */
  readonly idAt: Position | undefined;
  /** Where the `name` value is. */
  readonly nameAt: Position;
  /** Where `resource` is written, or `undefined` when it defaults to the id. */
  readonly resourceAt: Position | undefined;
  /** Where each item of `services` is written, in order. */
  readonly servicesAt: readonly Position[];
}

/** A valid maintenance window and where it was written. */
export interface LoadedMaintenance {
  readonly definition: MaintenanceDefinition;
  readonly file: string;
  /** 1-based index of the YAML document in the file. */
  readonly document: number;
  /** Where the definition starts. */
  readonly at: Position;
  /** Where the `name` value is. */
  readonly nameAt: Position;
  /** Where `resource` is written. */
  readonly resourceAt: Position;
}

/**
 * The id and resource name a document claims, whether or not the rest of it is valid,
 * so a clash is reported together with the document's other problems.
 */
export interface DefinitionIdentity {
  readonly file: string;
  /** Absent for a new incident, which names itself by `resource` alone. */
  readonly id: string | undefined;
  readonly idAt: Position | undefined;
  /** The resource name (the id when not written), or `undefined` when it is invalid. */
  readonly resource: string | undefined;
  /** Where `resource` is written, or `undefined` when it defaults to the id. */
  readonly resourceAt: Position | undefined;
}

export interface ParsedFile {
  readonly definitions: LoadedDefinition[];
  /** The valid maintenance windows (`kind: maintenance`), in document order; absent when none. */
  readonly maintenance?: LoadedMaintenance[] | undefined;
  /** The identity of every document with a valid id, valid or not otherwise. */
  readonly identities: DefinitionIdentity[];
  /** Problems in file order: at most `MAX_PROBLEMS_PER_FILE`, then one `too-many-problems`. */
  readonly problems: DefinitionProblem[];
  /** What the `too-many-problems` problem counts, if there is one. */
  readonly omitted?: OmittedProblems | undefined;
  /** The services the file names, when it is the services catalog. */
  readonly catalog?: readonly CatalogService[] | undefined;
}

/** A service named in the catalog, and where. */
export interface CatalogService {
  readonly id: string;
  readonly name: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
}
