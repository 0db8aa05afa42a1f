import { CORE_SCHEMA, loadAll } from "js-yaml";
import { MAX_DOCUMENTS, MAX_FILE_BYTES } from "./limits";
import type { DefinitionIdentity, LoadedDefinition, ParsedFile, SourceFile } from "./parsed-file";
import { PositionIndex } from "./position";
import { DEFINITION_KEYS, IncidentDefinition } from "./schema";

/*
 * js-yaml reads small files much faster than `yaml`; it is trusted only for plainly written,
 * valid files, and anything else goes to the full `yaml` path, the authority on problems.
 */

/** A top-level key line: `key:` at column 0, then a space or the end of the line. */
const KEY_LINE = /^([A-Za-z][A-Za-z0-9_]*):(?: +|$)/;
/** Anchors, aliases, tags, tabs, CR, BOM or NUL anywhere: left to `yaml`. */
const UNUSUAL = /(?:^|[\s,[{])[&*!]|[\t\r\uFEFF\0]/m;
/** Strings that `yaml`'s core schema might read as something else, whatever js-yaml said. */
const NOT_PLAINLY_STRING =
  /^(?:[-+.]?[0-9]|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|~|null|Null|NULL|true|True|TRUE|false|False|FALSE)?$/;
/** How a top-level number, boolean or null must be written to be read alike by both. */
const PLAIN_NON_STRING = /^(?:-?(?:0|[1-9][0-9]*)|true|false|null)$/;

const KNOWN_KEYS = new Set(DEFINITION_KEYS);

interface ScannedDocument {
  /** Offset of the first key, where the mapping (the document's contents) starts. */
  readonly start: number;
  readonly keys: { readonly name: string; readonly valueAt: number; readonly raw: string }[];
}

/** The definitions of a plainly written valid file, or `undefined` to take the full path. */
export function parseDefinitionFileFast(file: SourceFile): ParsedFile | undefined {
  // Files that may be near the size limit are left to the full path, which measures them.
  if (file.text.length * 3 > MAX_FILE_BYTES || UNUSUAL.test(file.text)) return undefined;
  const scanned = scanDocuments(file.text);
  if (scanned === undefined || scanned.length === 0) return undefined;
  let values: unknown[];
  try {
    values = loadAll(file.text, { schema: CORE_SCHEMA }) as unknown[];
  } catch {
    return undefined;
  }
  if (values.length !== scanned.length) return undefined;
  const positions = new PositionIndex(file.text);
  const definitions: LoadedDefinition[] = [];
  const identities: DefinitionIdentity[] = [];
  for (const [index, value] of values.entries()) {
    const document = scanned[index];
    if (document === undefined || !matchesScan(value, document)) return undefined;
    const result = IncidentDefinition.safeParse(value);
    if (!result.success) return undefined;
    const id = document.keys.find((key) => key.name === "id");
    const resource = document.keys.find((key) => key.name === "resource");
    // A new incident (no id) and `updates` (free text, often in block scalars) take the full path.
    if (id === undefined || document.keys.some((key) => key.name === "updates")) return undefined;
    const services = document.keys.find((key) => key.name === "services");
    const itemOffsets =
      services === undefined
        ? undefined
        : serviceItemOffsets(file.text, services, result.data.services.length);
    if (itemOffsets === undefined) return undefined;
    const idAt = positions.at(id.valueAt);
    const name = document.keys.find((key) => key.name === "name");
    const resourceAt = resource === undefined ? undefined : positions.at(resource.valueAt);
    definitions.push({
      definition: result.data,
      file: file.path,
      document: index + 1,
      at: positions.at(document.start),
      idAt,
      nameAt: positions.at(name?.valueAt ?? document.start),
      resourceAt,
      servicesAt: itemOffsets.map((offset) => positions.at(offset)),
    });
    const { resource: resourceName } = result.data;
    identities.push({
      file: file.path,
      id: result.data.id,
      idAt,
      resource: resourceName,
      resourceAt,
    });
  }
  return { definitions, identities, problems: [] };
}

/** A flow sequence of plain items on the key's line: `[a, b]`, with no quotes or nesting. */
const PLAIN_FLOW = /^\[[^"'[\]{}#]*\]$/;

/**
 * Where each `services` item starts, as `yaml` places it (after `- `, or at the item in a flow
 * sequence on the key's line); anything else gives up (`undefined`).
 */
function serviceItemOffsets(
  text: string,
  key: ScannedDocument["keys"][number],
  count: number,
): number[] | undefined {
  if (key.raw !== "") return flowItemOffsets(key, count);
  const offsets: number[] = [];
  let indent: number | undefined;
  let lineStart = text.indexOf("\n", key.valueAt);
  while (lineStart !== -1) {
    lineStart++;
    const end = text.indexOf("\n", lineStart);
    const line = text.slice(lineStart, end === -1 ? text.length : end);
    const content = line.trimStart();
    const column = line.length - content.length;
    if (content !== "" && !content.startsWith("#")) {
      if (column === 0) break;
      if (indent === undefined) indent = column;
      if (column === indent) {
        const item = /^- +(?=[^\s#])/.exec(content);
        if (item === null) return undefined;
        offsets.push(lineStart + column + item[0].length);
      } else if (column < indent) return undefined;
    }
    lineStart = end;
  }
  return offsets.length === count ? offsets : undefined;
}

function flowItemOffsets(
  key: ScannedDocument["keys"][number],
  count: number,
): number[] | undefined {
  if (!PLAIN_FLOW.test(key.raw)) return undefined;
  const offsets: number[] = [];
  const inner = key.raw.slice(1, -1);
  let from = 0;
  for (const part of inner.split(",")) {
    const lead = part.length - part.trimStart().length;
    if (part.trim() !== "") offsets.push(key.valueAt + 1 + from + lead);
    from += part.length + 1;
  }
  return offsets.length === count ? offsets : undefined;
}

/**
 * Splits the text into documents at `---` lines and records each top-level key line.
 * Any other line at column 0 (a flow mapping, `...`, a directive, `- `) gives up.
 */
function scanDocuments(text: string): ScannedDocument[] | undefined {
  const documents: { start: number; keys: ScannedDocument["keys"] }[] = [];
  let current: { start: number; keys: ScannedDocument["keys"] } | undefined;
  let open = false;
  let offset = 0;
  for (const line of text.split("\n")) {
    const lineStart = offset;
    offset += line.length + 1;
    const first = line.charAt(0);
    if (first === "" || first === " " || first === "#") {
      // Indented content before the first key: an indented mapping, left to yaml.
      const content = line.trimStart();
      if (first === " " && current === undefined && content !== "" && !content.startsWith("#")) {
        return undefined;
      }
      continue;
    }
    if (/^--- *$/.test(line)) {
      // An empty document between two markers is left to yaml.
      if (current === undefined && open) return undefined;
      if (current !== undefined) documents.push(current);
      current = undefined;
      open = true;
      continue;
    }
    const key = KEY_LINE.exec(line);
    // An unknown key, a repeated one or too many documents: a problem, for yaml to tell.
    if (key === null || !KNOWN_KEYS.has(key[1] ?? "")) return undefined;
    current ??= { start: lineStart, keys: [] };
    if (current.keys.length === KNOWN_KEYS.size || documents.length === MAX_DOCUMENTS) {
      return undefined;
    }
    const rest = line.slice(key[0].length);
    // The value written on the key's line, without a comment (which may be all there is).
    const raw = rest.replace(/(?:^| +)#.*$/, "").trimEnd();
    current.keys.push({ name: key[1] ?? "", valueAt: lineStart + key[0].length, raw });
  }
  if (current === undefined) return open ? undefined : documents;
  documents.push(current);
  return documents;
}

/**
 * Whether js-yaml's value has exactly the scanned keys, each `id`, `resource` and `name`
 * written on its key's line, and no scalar that `yaml` could read differently.
 */
function matchesScan(value: unknown, document: ScannedDocument): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  if (entries.length !== document.keys.length) return false;
  return entries.every(([name, field], index) => {
    const key = document.keys[index];
    if (key === undefined || key.name !== name) return false;
    const placed = name === "id" || name === "resource" || name === "name";
    if (placed && (key.raw === "" || /^[|>]/.test(key.raw))) {
      return false;
    }
    if (typeof field === "object" && field !== null) return stringsArePlain(field);
    if (typeof field === "string") return !NOT_PLAINLY_STRING.test(field);
    return PLAIN_NON_STRING.test(key.raw);
  });
}

function stringsArePlain(value: unknown): boolean {
  if (typeof value === "string") return !NOT_PLAINLY_STRING.test(value);
  if (typeof value !== "object" || value === null) return false;
  return Object.values(value).every(stringsArePlain);
}
