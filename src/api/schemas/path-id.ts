import { z } from "zod";
import {
  describeCharacter,
  type FoundCharacter,
  findCharacter,
  isHiddenCharacter,
  isWhitespaceCharacter,
} from "./characters";

/** Longest id accepted as a path parameter. */
export const PATH_ID_MAX_LENGTH = 255;

/** Characters with a meaning in a URL path: each would end or reinterpret the segment. */
const URL_SYNTAX = new Set(["/", "\\", "?", "#", "%"]);
/** Any refused character, to accept the usual id in one test before looking for which. */
const ANY_UNSAFE = /[/\\?#%\p{White_Space}\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;

/**
 * Why a text cannot be one path segment; `undefined` when it can. Emptiness and length are
 * checked by `PathId` itself (zod's min and max), so an empty text has no problem here.
 */
export type PathIdProblem =
  | { readonly kind: "blank" }
  | { readonly kind: "dot-segment" }
  | ({ readonly kind: "character" } & FoundCharacter);

/** Whether a character may not appear in a path parameter (see `PathId`). */
export function isPathIdUnsafe(character: string): boolean {
  return (
    URL_SYNTAX.has(character) || isHiddenCharacter(character) || isWhitespaceCharacter(character)
  );
}

export function pathIdProblem(value: string): PathIdProblem | undefined {
  if (value === "") return undefined;
  if (value.trim() === "") return { kind: "blank" };
  if (value === "." || value === "..") return { kind: "dot-segment" };
  if (!ANY_UNSAFE.test(value)) return undefined;
  const found = findCharacter(value, isPathIdUnsafe);
  return found === undefined ? undefined : { kind: "character", ...found };
}

const HINT =
  "an id is one URL path segment of visible characters, without whitespace, /, \\, ?, # or %";

/** The sentence (without a subject) that says what is wrong, as every layer shows it. */
export function pathIdMessage(problem: PathIdProblem): string {
  switch (problem.kind) {
    case "blank":
      return "must not be blank (it holds only whitespace)";
    case "dot-segment":
      return "must not be '.' or '..' (URL parsing would change the path)";
    case "character":
      return `must not contain ${describeCharacter(problem.codePoint)} (character ${problem.position}); ${HINT}`;
  }
}

/**
 * A path parameter: an incident id, a check id or an error-group id, sent as one segment
 * of the URL path (`/v1/status-pages/incidents/{incidentId}`). The client checks it before
 * sending, the emulator on every route, and the definitions loader in `incidents/`.
 *
 * Allowed: 1 to 255 characters, not only whitespace, and none of:
 * - `.` or `..` as the whole id: URL parsing resolves dot segments away (also when
 *   percent-encoded), so `PUT …/incidents/..` would reach `/v1/status-pages/`;
 * - `/` `\` `?` `#` `%`: a segment separator (WHATWG URLs read `\` as `/`), the start of
 *   the query or fragment, and percent-encoding, which servers and proxies may decode
 *   into any of these;
 * - whitespace (Unicode White_Space: space, tab, no-break and ideographic spaces, …);
 * - controls (Cc: NUL, BEL, ESC, line breaks), format characters (Cf: zero-width
 *   characters and the bidirectional marks, embeddings, overrides and isolates such as
 *   U+202E RIGHT-TO-LEFT OVERRIDE), line and paragraph separators and lone surrogates,
 *   which make two different ids look alike or reorder the text around them.
 *
 * Every other character (letters of any script, digits, `-`, `_`, `.`, `:`, `@`, emoji)
 * is allowed and is percent-encoded by the client. A refused id gets one issue whose
 * `params.pathId` holds the `PathIdProblem`, for callers that point at the character.
 */
export const PathId = z
  .string()
  .min(1, "must not be empty")
  .max(PATH_ID_MAX_LENGTH, `must be at most ${PATH_ID_MAX_LENGTH} characters long`)
  // A plain check rather than superRefine: it runs for every id of every definition, and
  // superRefine adds a closure to each parse's payload.
  .check((payload) => {
    const problem = pathIdProblem(payload.value);
    if (problem === undefined) return;
    payload.issues.push({
      code: "custom",
      message: pathIdMessage(problem),
      input: payload.value,
      params: { pathId: problem },
      continue: true,
    });
  });

let pattern: string | undefined;

/**
 * The ids `PathId` accepts as one regular expression, for the OpenAPI document, so that
 * clients generated from it (and fuzzers such as schemathesis) know the rule the server
 * applies. It is derived from `isPathIdUnsafe` over every code point, not written by hand,
 * and uses literal characters rather than escapes so that ECMA-262 with the `u` flag (as
 * JSON Schema validators compile patterns) and Python's `re` read it the same way. Built
 * once, on first use.
 */
export function pathIdPattern(): string {
  if (pattern !== undefined) return pattern;
  const ranges: Array<[number, number]> = [];
  for (let codePoint = 0; codePoint <= 0x10ffff; codePoint += 1) {
    // Lone surrogates never reach a server (UTF-8 cannot carry them), and regex engines
    // that work on UTF-8, as schemathesis's does, refuse them in a pattern.
    if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
    if (!isPathIdUnsafe(String.fromCodePoint(codePoint))) continue;
    const last = ranges.at(-1);
    if (last && last[1] === codePoint - 1) last[1] = codePoint;
    else ranges.push([codePoint, codePoint]);
  }
  const literal = (codePoint: number) => {
    const character = String.fromCodePoint(codePoint);
    return "\\]^-[.".includes(character) ? `\\${character}` : character;
  };
  const refused = ranges
    .map(([from, to]) => (from === to ? literal(from) : `${literal(from)}-${literal(to)}`))
    .join("");
  // Any id but "." and "..": starts with another character, or with one dot and then
  // another character, or with two dots and then anything.
  const safe = `[^${refused}]`;
  const safeNotDot = `[^${refused}\\.]`;
  pattern = `^(?:${safeNotDot}${safe}*|\\.${safeNotDot}${safe}*|\\.\\.${safe}+)$`;
  return pattern;
}

/** `PathId` as the JSON Schema of an OpenAPI path parameter. */
export function pathIdJsonSchema(): Record<string, unknown> {
  return {
    type: "string",
    minLength: 1,
    maxLength: PATH_ID_MAX_LENGTH,
    pattern: pathIdPattern(),
  };
}
