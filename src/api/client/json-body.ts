/*
 * How the client reads a JSON body: its nesting checked before it is parsed, and the API key
 * taken out of every string it holds, so nothing later (a cut to a length, a report, a state
 * file) can show part of the key.
 */

/** The body nests arrays and objects deeper than the client reads. */
export class TooDeepError extends Error {
  override name = "TooDeepError";
  constructor(readonly maxDepth: number) {
    super(`nested more than ${maxDepth} levels deep`);
  }
}

/** Every occurrence of `secret` in `text` replaced with `[redacted]`. */
export function redactSecret(text: string, secret: string): string {
  return secret === "" || !text.includes(secret) ? text : text.split(secret).join("[redacted]");
}

/**
 * Parses a JSON body: `TooDeepError` when arrays and objects nest deeper than `maxDepth`
 * (checked in one pass over the text, before anything is built), `SyntaxError` when it is not
 * JSON. Strings holding `secret` come back with it redacted, however the body spelled it.
 */
export function parseJsonBody(text: string, maxDepth: number, secret: string): unknown {
  if (nestsDeeperThan(text, maxDepth)) throw new TooDeepError(maxDepth);
  if (!maySpell(text, secret)) return JSON.parse(text);
  return JSON.parse(text, (_key, value: unknown) =>
    typeof value === "string" ? redactSecret(value, secret) : value,
  );
}

/**
 * Whether a string of the parsed body could hold `secret`: the text has it as is, or has an
 * escape that could spell one of its characters (`\u0041`, or `\/`, `\"`, `\\` for those).
 * Most bodies have neither, and are parsed without a reviver.
 */
function maySpell(text: string, secret: string): boolean {
  if (secret === "") return false;
  if (text.includes(secret) || text.includes("\\u")) return true;
  return /[/"\\]/.test(secret) && /\\[/"\\]/.test(text);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

/** Whether `[` and `{` outside strings nest deeper than `max` anywhere in `text`. */
function nestsDeeperThan(text: string, max: number): boolean {
  if (text.length <= max) return false;
  let depth = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      for (at++; at < text.length; at++) {
        const inside = text.charCodeAt(at);
        if (inside === BACKSLASH) at++;
        else if (inside === QUOTE) break;
      }
    } else if (OPENERS.has(code)) {
      if (++depth > max) return true;
    } else if (CLOSERS.has(code)) {
      depth--;
    }
  }
  return false;
}
