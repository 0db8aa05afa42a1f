import type { z } from "zod";
import { type PathIdProblem, quoteText } from "../api/schemas";
import { closestMatch } from "../suggest";
import { DECLARED_UPDATE_KEYS } from "./declared-update";
import type { TextProblem } from "./field-checks";
import type { Message } from "./file-problems";
import { isMaintenance } from "./kind";
import { MAINTENANCE_KEYS } from "./maintenance-schema";
import type { ProblemCode } from "./problem";
import { DefinitionServiceObject, Evidence } from "./references";
import { DEFINITION_KEYS } from "./schema";

/** A zod issue turned into words, with where it should be pointed at. */
export interface IssueText {
  readonly code: ProblemCode;
  /** The words, or how to write them (for issues that can come by the thousand). */
  readonly message: Message;
  /** The path of the node to point at. */
  readonly path: readonly PropertyKey[];
  /** Point at this key of the mapping at `path` rather than at its value. */
  readonly key?: string;
  /** Point at this character (an index in the text value at `path`) rather than at the value. */
  readonly characterIndex?: number;
}

const SERVICE_KEYS = Object.keys(DefinitionServiceObject.shape);
const EVIDENCE_KEYS = Object.keys(Evidence.shape);

/** Short advice added to "missing field" messages, so people know what to write. */
const FIELD_HINTS: Readonly<Record<string, string>> = {
  id: "the incident id on the status page",
  name: "the incident title",
  severity: "one of CRITICAL, MAJOR, MEDIUM, MINOR",
  status: "one of INVESTIGATING, IDENTIFIED, MONITORING, RESOLVED",
  services: "a list of service ids",
  updates: "what customers read: a list of { status, message }",
  message: "what customers read",
};

/** Codes of the rules between fields (`params.rule` of the schema's issues). */
const RULE_CODES: ReadonlySet<ProblemCode> = new Set<ProblemCode>([
  "missing-key",
  "status-mismatch",
  "notify-refused",
  "out-of-order",
  "reopen-without-flag",
  "closing-without-resolve",
  "closing-without-updates",
  "invalid-time",
  "invalid-timezone",
  "end-before-start",
  "services-and-all",
  "needs-status-pages",
  "until-before-start",
  "missing-occurrence",
  "unknown-occurrence",
]);

/**
 * Words for one zod issue. `input` is the whole document's value, and `sourceOf` what the
 * person wrote at a path when YAML read a plain scalar into something else (`0x1F` is the
 * number 31), so a message quotes what is in the file.
 */
export function describeIssue(
  issue: z.core.$ZodIssue,
  input: unknown,
  sourceOf: (path: readonly PropertyKey[]) => string | undefined = () => undefined,
): IssueText[] {
  const path = issue.path;
  const label = fieldLabel(path);
  const value = valueAt(input, path);
  const rule = issue.code === "custom" ? (issue.params as { rule?: ProblemCode })?.rule : undefined;
  if (rule !== undefined && RULE_CODES.has(rule)) {
    return [{ code: rule, path, message: issue.message }];
  }
  const written = sourceOf(path);
  if (path.length > 0 && issue.code !== "unrecognized_keys" && !hasValueAt(input, path)) {
    return [missingKey(path)];
  }
  switch (issue.code) {
    case "unrecognized_keys":
      return issue.keys.map((key) => unknownKey(path, key, input));
    case "invalid_type":
      if (path.length === 0) {
        return [
          {
            code: "not-a-mapping",
            path,
            message: `a definition must be a mapping of fields (id, name, severity, status, services), not ${describeValue(value)}`,
          },
        ];
      }
      if (typeof value === "number" && !Number.isFinite(value) && issue.expected !== "string") {
        return [{ code: "invalid-value", path, message: notFiniteMessage(label, value, written) }];
      }
      return [
        {
          code: "invalid-type",
          path,
          message: `${label} must be ${expectedText(issue.expected)}, not ${describeWritten(value, written)}${quoteHint(issue.expected, value, written)}`,
        },
      ];
    case "invalid_value": {
      const allowed = issue.values.map(String);
      const suggestion = typeof value === "string" ? closestMatch(value, allowed) : undefined;
      const shown = typeof value === "string" ? quoteText(value) : describeValue(value);
      return [
        {
          code: "invalid-value",
          path,
          message: `${label} ${shown} is not allowed; use one of ${allowed.join(", ")}${suggestion ? ` (did you mean ${suggestion}?)` : ""}`,
        },
      ];
    }
    case "too_big":
      if (issue.origin === "string" && typeof value === "string") {
        return [
          {
            code: "too-long",
            path,
            message: `${label} is ${value.length} characters long; the limit is ${issue.maximum}`,
          },
        ];
      }
      if (issue.origin === "array" && Array.isArray(value)) {
        return [
          {
            code: "too-long",
            path,
            message: `${label} has ${value.length} entries; the limit is ${issue.maximum}${label === "updates" ? " (the service lists an incident's 100 latest updates)" : ""}`,
          },
        ];
      }
      return [{ code: "invalid-value", path, message: `${label} is too large: ${issue.message}` }];
    case "too_small":
      if (issue.origin === "array") {
        return [
          {
            code: "empty-list",
            path,
            message:
              label === "services"
                ? "services is empty; list at least one affected service"
                : `${label} must have at least ${issue.minimum} item(s)`,
          },
        ];
      }
      if (issue.origin === "string") {
        return [{ code: "too-short", path, message: `${label} must not be empty` }];
      }
      return [{ code: "invalid-value", path, message: `${label} is too small: ${issue.message}` }];
    case "invalid_union": {
      // A service written in the right form gets that form's own problems.
      const branch = typeof value === "string" ? 0 : isMapping(value) ? 1 : undefined;
      const inner = branch === undefined ? [] : (issue.errors[branch] ?? []);
      if (inner.length > 0) {
        return inner.flatMap((nested) =>
          describeIssue({ ...nested, path: [...path, ...nested.path] }, input, sourceOf),
        );
      }
      return [
        {
          code: "invalid-type",
          path,
          message: `${label} must be a service id or a mapping with "id" and an optional "name", not ${describeValue(value)}`,
        },
      ];
    }
    case "custom":
      return [customIssue(issue, path, label, value)];
    default:
      return [{ code: "invalid-value", path, message: `${label}: ${issue.message}` }];
  }
}

/** Issues of our own rules: a repeated item, or a text problem from `PathId` or the schema. */
function customIssue(
  issue: z.core.$ZodIssueCustom,
  path: readonly PropertyKey[],
  label: string,
  value: unknown,
): IssueText {
  const params = issue.params as
    | { repeat?: true; pathId?: PathIdProblem; text?: TextProblem }
    | undefined;
  const problem = params?.pathId ?? params?.text;
  const shown = typeof value === "string" ? ` ${quoteText(value)}` : "";
  switch (problem?.kind) {
    case "blank":
      return { code: "blank-text", path, message: `${label} ${issue.message}` };
    case "dot-segment":
      return { code: "invalid-value", path, message: `${label}${shown} ${issue.message}` };
    case "character":
      return {
        code: "invalid-character",
        path,
        characterIndex: problem.index,
        message: `${label}${shown} ${issue.message}`,
      };
    default:
      return {
        code: params?.repeat ? "repeated-item" : "invalid-value",
        path,
        message: `${label}: ${issue.message}`,
      };
  }
}

/** One per unknown key, so a file of many keys is many problems: written only if listed. */
function unknownKey(path: readonly PropertyKey[], key: string, input: unknown): IssueText {
  return {
    code: "unknown-key",
    path,
    key,
    message: () => {
      const allowed = allowedKeysAt(path, input);
      const suggestion = closestMatch(key, allowed);
      const where = path.length === 0 ? "" : ` in ${fieldLabel(path)}`;
      return suggestion
        ? `unknown field ${quoteText(key)}${where}; did you mean "${suggestion}"?`
        : `unknown field ${quoteText(key)}${where}; allowed fields are ${allowed.join(", ")}`;
    },
  };
}

function missingKey(path: readonly PropertyKey[]): IssueText {
  const key = String(path[path.length - 1]);
  const parent = path.slice(0, -1);
  const hint = parent.length === 0 ? FIELD_HINTS[key] : undefined;
  const where = parent.length === 0 ? "" : ` in ${fieldLabel(parent)}`;
  return {
    code: "missing-key",
    path: parent,
    message: `missing required field "${key}"${where}${hint ? ` (${hint})` : ""}`,
  };
}

function allowedKeysAt(path: readonly PropertyKey[], input: unknown): readonly string[] {
  if (isMaintenance(input)) {
    const part = MAINTENANCE_KEYS[String(path[0]) as keyof typeof MAINTENANCE_KEYS];
    return path.length > 0 && part !== undefined ? part : MAINTENANCE_KEYS.top;
  }
  if (path[0] === "services") return SERVICE_KEYS;
  if (path[0] === "evidence") return EVIDENCE_KEYS;
  if (path[0] === "updates") return DECLARED_UPDATE_KEYS;
  return DEFINITION_KEYS;
}

/** `services[1].id` for the path `["services", 1, "id"]`. */
export function fieldLabel(path: readonly PropertyKey[]): string {
  let label = "";
  for (const segment of path) {
    if (typeof segment === "number") label += `[${segment}]`;
    else label += label === "" ? String(segment) : `.${String(segment)}`;
  }
  return label === "" ? "the definition" : label;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const segment of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value;
}

/** Whether the key at the end of `path` is written at all (a YAML `key:` with no value is null). */
function hasValueAt(input: unknown, path: readonly PropertyKey[]): boolean {
  const parent = valueAt(input, path.slice(0, -1));
  return (
    parent !== null && typeof parent === "object" && Object.hasOwn(parent, path[path.length - 1]!)
  );
}

function expectedText(expected: string): string {
  switch (expected) {
    case "string":
      return "text";
    case "int":
      return "a whole number";
    case "number":
      return "a number";
    case "boolean":
      return "true or false";
    case "array":
      return "a list";
    case "object":
      return "a mapping";
    default:
      return expected;
  }
}

function isMapping(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** How a value reads in a message: `the text "x"`, `the number 1`, `a list`. */
export function describeValue(value: unknown): string {
  if (value === null) return "empty (null)";
  if (Array.isArray(value)) return "a list";
  switch (typeof value) {
    case "string":
      return `the text ${quoteText(value)}`;
    case "number":
      return `the number ${value}`;
    case "boolean":
      return `${value}`;
    case "object":
      return "a mapping";
    default:
      return typeof value;
  }
}

/**
 * YAML reads `id: 123`, `id: 0x1F` or `id: yes` as non-text; quoting what was written is the
 * fix people need (`"0x1F"`, not `"31"`, which is another id).
 */
function quoteHint(expected: string, value: unknown, written: string | undefined): string {
  if (expected !== "string") return "";
  if (typeof value === "number" || typeof value === "boolean") {
    return `; put it in quotes: ${JSON.stringify(written ?? String(value))}`;
  }
  return "";
}

/** `the number 0x1F (YAML reads it as 31)`: a value as written, and what YAML made of it. */
function describeWritten(value: unknown, written: string | undefined): string {
  const made = describeValue(value);
  if (written === undefined || typeof value !== "number" || written === String(value)) return made;
  return `the number ${written} (YAML reads it as ${value})`;
}

/** `1e400` is too large to be a number: YAML reads it as infinity; `.nan` is not a number. */
function notFiniteMessage(label: string, value: number, written: string | undefined): string {
  const shown = written ?? String(value);
  if (Number.isNaN(value)) {
    return `${label} ${shown} is not a number (YAML reads it as NaN); write a number`;
  }
  return value > 0
    ? `${label} ${shown} is too large to be a number (YAML reads it as infinity); write a smaller number`
    : `${label} ${shown} is too small to be a number (YAML reads it as minus infinity); write a larger number`;
}
