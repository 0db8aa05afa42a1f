import type { Document } from "yaml";
import type { z } from "zod";
import { parseCatalogFile } from "./catalog";
import { type AliasBudget, documentValue } from "./document-value";
import { FileProblems } from "./file-problems";
import { describeIssue } from "./issue-message";
import { definitionKind } from "./kind";
import { MAX_FILE_BYTES } from "./limits";
import { MaintenanceDefinition } from "./maintenance-schema";
import { parseDefinitionFileFast } from "./parse-fast";
import type {
  DefinitionIdentity,
  LoadedDefinition,
  LoadedMaintenance,
  ParsedFile,
  SourceFile,
} from "./parsed-file";
import { PositionIndex } from "./position";
import { IncidentDefinition } from "./schema";
import { readYamlDocuments } from "./yaml-documents";
import { Locator } from "./yaml-locate";

/**
 * Parses every YAML document of one file into a definition, collecting every problem
 * rather than stopping at the first. Plainly written valid files take a faster parser
 * (see parse-fast.ts); the result is the same either way.
 */
export function parseDefinitionFile(file: SourceFile): ParsedFile {
  if (file.refused) {
    const { code, message, line, column } = file.refused;
    return {
      definitions: [],
      identities: [],
      problems: [{ file: file.path, line, column, code, message }],
    };
  }
  if (file.catalog) return parseCatalogFile(file);
  return parseDefinitionFileFast(file) ?? parseDefinitionFileFully(file);
}

/** The full path with `yaml`: the authority for every problem and every position. */
export function parseDefinitionFileFully(file: SourceFile): ParsedFile {
  const positions = new PositionIndex(file.text);
  const problems = new FileProblems(file.path, file.text);
  const { report } = problems;
  const definitions: LoadedDefinition[] = [];
  const maintenance: LoadedMaintenance[] = [];
  const identities: DefinitionIdentity[] = [];

  const bytes = oversizeBytes(file.text);
  if (bytes !== undefined) {
    report(0, "file-too-large", fileTooLargeMessage(bytes));
    return { definitions, identities, ...problems.list() };
  }

  const { documents, skipped } = readYamlDocuments(file.text, report);
  const budget: AliasBudget = { used: 0 };
  let count = skipped;
  for (const { document, number, broken, warned } of documents) {
    if (broken) continue;
    if (isEmptyDocument(document)) continue;
    count++;
    const before = problems.count;
    const converted = documentValue(document, budget, report);
    if (converted === undefined) continue;
    const { value } = converted;
    const locator = new Locator(document, converted.index, file.text);
    const kind = definitionKind(value);
    if (typeof kind === "object") {
      report(locator.offsetOfPath(["kind"]), "unknown-kind", kind.problem);
      continue;
    }
    if (kind === "maintenance") {
      const window = parseMaintenance(file.path, value, locator, positions, report);
      if (window.identity !== undefined) identities.push(window.identity);
      if (window.loaded !== undefined && !warned && problems.count === before) {
        maintenance.push({ ...window.loaded, document: number });
      }
      continue;
    }
    const result = IncidentDefinition.safeParse(value);
    const issues = result.success ? [] : result.error.issues;
    for (const issue of issues) {
      for (const text of describeIssue(issue, value, (at) => locator.sourceOf(at))) {
        report(locator.offsetOfIssue(text), text.code, text.message);
      }
    }
    const identity = identityOf(file.path, value, issues, locator, positions);
    if (identity !== undefined) identities.push(identity);
    if (!result.success || warned || problems.count > before || identity === undefined) continue;
    definitions.push({
      definition: result.data,
      file: file.path,
      document: number,
      at: positions.at(document.contents?.range?.[0] ?? document.range[0]),
      idAt: identity.idAt,
      nameAt: positions.at(locator.offsetOfPath(["name"])),
      resourceAt: identity.resourceAt,
      servicesAt: result.data.services.map((_, index) =>
        positions.at(locator.offsetOfPath(["services", index])),
      ),
    });
  }

  if (count === 0 && problems.count === 0) {
    report(0, "empty-file", "the file holds no incident definition; add one or delete the file");
  }
  return {
    definitions,
    ...(maintenance.length > 0 ? { maintenance } : {}),
    identities,
    ...problems.list(),
  };
}

/**
 * One `kind: maintenance` document: the window when it is valid, and the resource it claims
 * (so that a clash with another definition is told with its other problems).
 */
function parseMaintenance(
  file: string,
  value: unknown,
  locator: Locator,
  positions: PositionIndex,
  report: FileProblems["report"],
): { loaded?: Omit<LoadedMaintenance, "document">; identity?: DefinitionIdentity } {
  const result = MaintenanceDefinition.safeParse(value);
  const issues = result.success ? [] : result.error.issues;
  for (const issue of issues) {
    for (const text of describeIssue(issue, value, (at) => locator.sourceOf(at))) {
      report(locator.offsetOfIssue(text), text.code, text.message);
    }
  }
  const resource = (value as { resource?: unknown }).resource;
  const resourceOk =
    typeof resource === "string" && !issues.some((issue) => issue.path[0] === "resource");
  const resourceAt = positions.at(locator.offsetOfPath(["resource"]));
  const identity = resourceOk
    ? { file, id: undefined, idAt: undefined, resource, resourceAt }
    : undefined;
  if (!result.success) return identity === undefined ? {} : { identity };
  return {
    identity,
    loaded: {
      definition: result.data,
      file,
      at: positions.at(locator.offsetOfPath([])),
      nameAt: positions.at(locator.offsetOfPath(["name"])),
      resourceAt,
    },
  };
}

/** The id and resource a document claims, when its id passed the schema. */
function identityOf(
  file: string,
  value: unknown,
  issues: readonly z.core.$ZodIssue[],
  locator: Locator,
  positions: PositionIndex,
): DefinitionIdentity | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { id, resource } = value as { id?: unknown; resource?: unknown };
  const failed = (field: string) => issues.some((issue) => issue.path[0] === field);
  const written = locator.hasKey([], "resource");
  const resourceValid = written && typeof resource === "string" && !failed("resource");
  const resourceAt = written ? positions.at(locator.offsetOfPath(["resource"])) : undefined;
  if (!locator.hasKey([], "id")) {
    // A new incident: known by its resource name alone.
    return resourceValid
      ? { file, id: undefined, idAt: undefined, resource, resourceAt }
      : undefined;
  }
  if (typeof id !== "string" || failed("id")) return undefined;
  return {
    file,
    id,
    idAt: positions.at(locator.offsetOfPath(["id"])),
    resource: !written ? id : resourceValid ? resource : undefined,
    resourceAt,
  };
}

function isEmptyDocument(document: Document.Parsed): boolean {
  const contents = document.contents as { value?: unknown } | null;
  return contents === null || (contents.value === null && !("items" in contents));
}

/** The size of `text` in UTF-8 when it is over `MAX_FILE_BYTES`, else `undefined`. */
function oversizeBytes(text: string): number | undefined {
  if (text.length * 3 <= MAX_FILE_BYTES) return undefined;
  const bytes = Buffer.byteLength(text, "utf8");
  return bytes > MAX_FILE_BYTES ? bytes : undefined;
}

/** Why a file over the size limit is not read; `bytes` is its size, or what was read of it. */
export function fileTooLargeMessage(bytes: number, exact = true): string {
  const limit = MAX_FILE_BYTES.toLocaleString("en-US");
  const size = `${exact ? "" : "more than "}${bytes.toLocaleString("en-US")} bytes`;
  return `the file is ${size}; the limit is ${limit} bytes (${MAX_FILE_BYTES / 1024} KiB), so it is not read: split it into several files`;
}
