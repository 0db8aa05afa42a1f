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
 * A path parameter (an incident, check or error-group id): 1–255 characters, not blank, not
 * `.` or `..`, and no `/ \ ? # %`, whitespace or hidden character (see `isPathIdUnsafe`); the
 * client, the emulator and the loader all check it. `params.pathId` says what is wrong.
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
 * `PathId` as one pattern for the OpenAPI document, derived from `isPathIdUnsafe` over every
 * code point, in literal characters so JSON Schema validators and Python's `re` agree.
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
