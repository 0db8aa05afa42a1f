/**
 * The one sanitiser of text we did not write, on its way to a person: invisible characters and
 * those that act on a terminal show as escapes (`\u001B`, `\r`); no line starts a workflow command.
 */

/** Controls (Cc), format characters (Cf), lone surrogates (Cs), line and paragraph separators. */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;
/** The same, but for the line feed that separates lines of a text. */
const HIDDEN_BUT_LINE_FEED = /(?!\n)[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;

const ESCAPES: Readonly<Record<string, string>> = {
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\\": "\\\\",
  '"': '\\"',
};

/** `\n`, `\r`, `\t` for those, `\uXXXX` (or `\u{XXXXX}` past the BMP) for any other character. */
export function escapeCharacter(character: string): string {
  const known = ESCAPES[character];
  if (known !== undefined) return known;
  const code = (character.codePointAt(0) ?? 0).toString(16).toUpperCase();
  return code.length > 4 ? `\\u{${code}}` : `\\u${code.padStart(4, "0")}`;
}

/** Every hidden character of `text`, line breaks included, as a visible escape. */
export function escapeHidden(text: string): string {
  return text.replace(HIDDEN, escapeCharacter);
}

/**
 * What a GitHub Actions runner reads as a command in a log line: `::name …::` at the start
 * of the line once its leading whitespace is trimmed (Unicode whitespace, as .NET trims it),
 * and the older `##[name …]` anywhere in it.
 */
const LINE_COMMAND = /^(\p{White_Space}*):(?=:)/u;
const OLD_COMMAND = /##\[/g;

/** A line as text, not a command: `\::error::x` and `##\[error]x` show as written, inert. */
function defuseCommands(line: string): string {
  return line.replace(LINE_COMMAND, "$1\\:").replace(OLD_COMMAND, "##\\[");
}

/**
 * One line of text for a terminal or a CI log: every hidden character, line breaks included,
 * as an escape, and no workflow command.
 *
 * @example
 * safeLine("\u001b[31mred\n::error::x") // "\\u001B[31mred\\n::error::x"
 */
export function safeLine(value: unknown): string {
  return defuseCommands(escapeHidden(textOf(value)));
}

/**
 * Text of several lines for a terminal or a CI log: line breaks (LF or CRLF) are kept, every
 * other hidden character (a lone CR included) is shown as an escape, and no line starts a
 * workflow command.
 */
export function safeText(value: unknown): string {
  return textOf(value)
    .replace(/\r\n/g, "\n")
    .replace(HIDDEN_BUT_LINE_FEED, escapeCharacter)
    .split("\n")
    .map(defuseCommands)
    .join("\n");
}

/** Line breaks kept, every other hidden character as an escape: for formats that escape the rest. */
export function escapeHiddenKeepingLines(value: unknown): string {
  return textOf(value).replace(/\r\n/g, "\n").replace(HIDDEN_BUT_LINE_FEED, escapeCharacter);
}

function textOf(value: unknown): string {
  return value === null || value === undefined ? "" : String(value);
}

/**
 * Every string in a value (an object, an array, nested), made safe with `safeLine`: for data
 * that formatting then lays out line by line (a stack's outputs), so no value can break a line
 * or carry an escape sequence, whatever the layout does with it.
 */
export function safeStrings<T>(value: T): T {
  if (typeof value === "string") return safeLine(value) as T;
  if (Array.isArray(value)) return value.map((item) => safeStrings(item)) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, safeStrings(item)]),
    ) as T;
  }
  return value;
}
