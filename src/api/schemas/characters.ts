/*
 * Characters that must not hide in identifiers or reach a terminal raw. Shared by the
 * path-parameter rule (path-id.ts), the definitions' id rules and the CLI's text output,
 * so "which character, and what it is called" is said the same way everywhere.
 */
import { escapeCharacter, escapeHidden } from "../../safe-text";

/**
 * Characters a reader cannot see or that change how text around them shows: controls,
 * format characters (zero-width, bidi), line and paragraph separators, lone surrogates.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;
const WHITESPACE = /\p{White_Space}/u;

/** Names of the characters people meet in pasted ids; the rest are named by category. */
const NAMES: ReadonlyMap<number, string> = new Map([
  [0x00, "NULL"],
  [0x01, "START OF HEADING"],
  [0x02, "START OF TEXT"],
  [0x03, "END OF TEXT"],
  [0x04, "END OF TRANSMISSION"],
  [0x05, "ENQUIRY"],
  [0x06, "ACKNOWLEDGE"],
  [0x07, "BELL"],
  [0x08, "BACKSPACE"],
  [0x09, "CHARACTER TABULATION"],
  [0x0a, "LINE FEED"],
  [0x0b, "LINE TABULATION"],
  [0x0c, "FORM FEED"],
  [0x0d, "CARRIAGE RETURN"],
  [0x0e, "SHIFT OUT"],
  [0x0f, "SHIFT IN"],
  [0x10, "DATA LINK ESCAPE"],
  [0x11, "DEVICE CONTROL ONE"],
  [0x12, "DEVICE CONTROL TWO"],
  [0x13, "DEVICE CONTROL THREE"],
  [0x14, "DEVICE CONTROL FOUR"],
  [0x15, "NEGATIVE ACKNOWLEDGE"],
  [0x16, "SYNCHRONOUS IDLE"],
  [0x17, "END OF TRANSMISSION BLOCK"],
  [0x18, "CANCEL"],
  [0x19, "END OF MEDIUM"],
  [0x1a, "SUBSTITUTE"],
  [0x1b, "ESCAPE"],
  [0x1c, "INFORMATION SEPARATOR FOUR"],
  [0x1d, "INFORMATION SEPARATOR THREE"],
  [0x1e, "INFORMATION SEPARATOR TWO"],
  [0x1f, "INFORMATION SEPARATOR ONE"],
  [0x20, "SPACE"],
  [0x7f, "DELETE"],
  [0x85, "NEXT LINE"],
  [0xa0, "NO-BREAK SPACE"],
  [0xad, "SOFT HYPHEN"],
  [0x061c, "ARABIC LETTER MARK"],
  [0x1680, "OGHAM SPACE MARK"],
  [0x180e, "MONGOLIAN VOWEL SEPARATOR"],
  [0x2000, "EN QUAD"],
  [0x2001, "EM QUAD"],
  [0x2002, "EN SPACE"],
  [0x2003, "EM SPACE"],
  [0x2004, "THREE-PER-EM SPACE"],
  [0x2005, "FOUR-PER-EM SPACE"],
  [0x2006, "SIX-PER-EM SPACE"],
  [0x2007, "FIGURE SPACE"],
  [0x2008, "PUNCTUATION SPACE"],
  [0x2009, "THIN SPACE"],
  [0x200a, "HAIR SPACE"],
  [0x200b, "ZERO WIDTH SPACE"],
  [0x200c, "ZERO WIDTH NON-JOINER"],
  [0x200d, "ZERO WIDTH JOINER"],
  [0x200e, "LEFT-TO-RIGHT MARK"],
  [0x200f, "RIGHT-TO-LEFT MARK"],
  [0x2028, "LINE SEPARATOR"],
  [0x2029, "PARAGRAPH SEPARATOR"],
  [0x202a, "LEFT-TO-RIGHT EMBEDDING"],
  [0x202b, "RIGHT-TO-LEFT EMBEDDING"],
  [0x202c, "POP DIRECTIONAL FORMATTING"],
  [0x202d, "LEFT-TO-RIGHT OVERRIDE"],
  [0x202e, "RIGHT-TO-LEFT OVERRIDE"],
  [0x202f, "NARROW NO-BREAK SPACE"],
  [0x205f, "MEDIUM MATHEMATICAL SPACE"],
  [0x2060, "WORD JOINER"],
  [0x2061, "FUNCTION APPLICATION"],
  [0x2062, "INVISIBLE TIMES"],
  [0x2063, "INVISIBLE SEPARATOR"],
  [0x2064, "INVISIBLE PLUS"],
  [0x2066, "LEFT-TO-RIGHT ISOLATE"],
  [0x2067, "RIGHT-TO-LEFT ISOLATE"],
  [0x2068, "FIRST STRONG ISOLATE"],
  [0x2069, "POP DIRECTIONAL ISOLATE"],
  [0x3000, "IDEOGRAPHIC SPACE"],
  [0xfeff, "ZERO WIDTH NO-BREAK SPACE"],
]);

/** Whether a character is invisible or reshapes the text around it (see HIDDEN). */
export function isHiddenCharacter(character: string): boolean {
  return HIDDEN.test(character);
}

/** What a kind of text may hold of the hidden characters, which the rest of it refuses. */
export interface HiddenAllowed {
  /** Characters allowed anywhere in it, such as a tab or a line feed. */
  readonly characters: readonly string[];
  /**
   * The invisible parts of one emoji: U+200D ZERO WIDTH JOINER between two emoji (👨‍👩‍👧)
   * and the tag characters of a flag (🏴 then U+E0067 …). Nowhere else.
   */
  readonly emoji: boolean;
}

/**
 * What customers' text (a title, a message) may hold: emoji sequences, whatever people paste.
 * A message may also break lines, as U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR do,
 * and hold U+FEFF, a zero-width no-break space (a byte-order mark pasted from an editor): none
 * of them hides or reorders text. Bidi controls, other zero-width and control characters stay
 * refused.
 */
export const CUSTOMER_TEXT = {
  name: { characters: ["\t"], emoji: true },
  message: { characters: ["\t", "\n", "\u2028", "\u2029", "\uFEFF"], emoji: true },
} as const satisfies Record<string, HiddenAllowed>;

const ZERO_WIDTH_JOINER = 0x200d;
const EXTENDED_PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
/** What an emoji may end with before a joiner: a skin tone, or the emoji presentation selector. */
const EMOJI_END = /^(?:\p{Extended_Pictographic}|\p{Emoji_Modifier}|\uFE0F|\u20E3)$/u;
const WAVING_BLACK_FLAG = 0x1f3f4;

/** Whether a tag character (U+E0020 to U+E007F) continues the flag emoji before it. */
function isFlagTag(codePoint: number, previous: number | undefined): boolean {
  const isTag = (point: number | undefined) =>
    point !== undefined && point >= 0xe0020 && point <= 0xe007f;
  return isTag(codePoint) && (previous === WAVING_BLACK_FLAG || isTag(previous));
}

/** The first hidden character of `text` (see `isHiddenCharacter`) that `allowed` does not allow. */
export function findHidden(text: string, allowed: HiddenAllowed): FoundCharacter | undefined {
  const points = [...text];
  let index = 0;
  for (let position = 0; position < points.length; position++) {
    const character = points[position] as string;
    const codePoint = character.codePointAt(0) ?? 0;
    if (isHiddenCharacter(character) && !allowed.characters.includes(character)) {
      const previous = points[position - 1];
      const next = points[position + 1];
      const inEmoji =
        allowed.emoji &&
        (codePoint === ZERO_WIDTH_JOINER
          ? previous !== undefined &&
            next !== undefined &&
            EMOJI_END.test(previous) &&
            EXTENDED_PICTOGRAPHIC.test(next)
          : isFlagTag(codePoint, previous?.codePointAt(0)));
      if (!inEmoji) return { index, position: position + 1, codePoint };
    }
    index += character.length;
  }
  return undefined;
}

/** Whether a character is Unicode whitespace (space, tab, no-break and ideographic spaces, …). */
export function isWhitespaceCharacter(character: string): boolean {
  return WHITESPACE.test(character);
}

/** A character found in a text: where it is and which it is. */
export interface FoundCharacter {
  /** Index in the JavaScript string (UTF-16 code units), for locating it in a source. */
  readonly index: number;
  /** 1-based position counted in characters (code points), as a person counts. */
  readonly position: number;
  readonly codePoint: number;
}

/** The first character of `text` for which `test` holds, or `undefined`. */
export function findCharacter(
  text: string,
  test: (character: string) => boolean,
): FoundCharacter | undefined {
  let index = 0;
  let position = 1;
  for (const character of text) {
    if (test(character)) return { index, position, codePoint: character.codePointAt(0) ?? 0 };
    index += character.length;
    position++;
  }
  return undefined;
}

/**
 * A character named for a message: printable ASCII as itself in quotes (`"/"`), anything
 * else as `U+202E RIGHT-TO-LEFT OVERRIDE`, or by its kind when the name is not listed.
 */
export function describeCharacter(codePoint: number): string {
  if (codePoint > 0x20 && codePoint < 0x7f) return `"${String.fromCodePoint(codePoint)}"`;
  const code = `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;
  const name = NAMES.get(codePoint);
  if (name !== undefined) return `${code} ${name}`;
  const character = String.fromCodePoint(codePoint);
  if (/\p{Cc}/u.test(character)) return `${code} (a control character)`;
  if (/\p{Cf}/u.test(character)) return `${code} (an invisible format character)`;
  if (/\p{Cs}/u.test(character)) return `${code} (half of a broken surrogate pair)`;
  if (WHITESPACE.test(character)) return `${code} (a space character)`;
  return code;
}

const NEEDS_QUOTED_ESCAPE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\\"]/gu;

/** Longest text quoted whole in a message; longer values are cut with their length given. */
const QUOTE_LIMIT = 80;

/**
 * Text from a file as it appears in a message: in double quotes, with hidden characters,
 * backslashes and quotes escaped as in JSON (`"a\nb"`, `"inc\u202Ex"`), and cut after 80
 * characters, so a value can neither break a line nor reorder the text around it.
 */
export function quoteText(text: string): string {
  const characters = [...text];
  const shown =
    characters.length > QUOTE_LIMIT ? `${characters.slice(0, QUOTE_LIMIT).join("")}…` : text;
  const quoted = `"${shown.replace(NEEDS_QUOTED_ESCAPE, escapeCharacter)}"`;
  return characters.length > QUOTE_LIMIT ? `${quoted} (${characters.length} characters)` : quoted;
}

/**
 * A text's hidden characters (line breaks, escape sequences, bidi controls, zero-width
 * characters) shown as escapes (`\n`, `\u001B`, `\u202E`), by the one sanitiser
 * (`src/safe-text.ts`), whose `safeLine` also keeps a line from starting a workflow command.
 */
export const escapeLine = escapeHidden;
