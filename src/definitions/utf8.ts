import { isUtf8 } from "node:buffer";
import type { ProblemCode } from "./problem";

/** A file refused as text, and where. */
export interface Utf8Refusal {
  readonly code: ProblemCode;
  readonly message: string;
  readonly line: number;
  readonly column: number;
}

/**
 * A definitions file's bytes as text, or where they stop being UTF-8: a file saved in
 * Latin-1 or Windows-1252 would otherwise read with `�` in place of its accents and pass.
 */
export function decodeUtf8(bytes: Buffer): { text: string } | { refused: Utf8Refusal } {
  if (isUtf8(bytes)) return { text: bytes.toString("utf8") };
  const offset = firstInvalidByte(bytes);
  const lineStart = bytes.lastIndexOf(0x0a, offset - 1) + 1;
  let line = 1;
  for (let at = bytes.indexOf(0x0a); at !== -1 && at < offset; at = bytes.indexOf(0x0a, at + 1)) {
    line++;
  }
  const column = [...bytes.subarray(lineStart, offset).toString("utf8")].length + 1;
  const byte = `0x${(bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, "0")}`;
  return {
    refused: {
      code: "invalid-utf8",
      message: `the file is not UTF-8 text: the byte ${byte} here is not part of any character (a file saved as Latin-1 or Windows-1252?); save it as UTF-8`,
      line,
      column,
    },
  };
}

/** The offset of the first byte that does not belong to a well-formed UTF-8 sequence. */
function firstInvalidByte(bytes: Buffer): number {
  let at = 0;
  while (at < bytes.length) {
    const first = bytes[at] as number;
    const length =
      first < 0x80
        ? 1
        : first >= 0xc2 && first <= 0xdf
          ? 2
          : first >= 0xe0 && first <= 0xef
            ? 3
            : first >= 0xf0 && first <= 0xf4
              ? 4
              : 0;
    if (length === 0) return at;
    // The second byte's range rules out overlong forms, surrogates and code points past U+10FFFF.
    const [low, high] =
      first === 0xe0
        ? [0xa0, 0xbf]
        : first === 0xed
          ? [0x80, 0x9f]
          : first === 0xf0
            ? [0x90, 0xbf]
            : first === 0xf4
              ? [0x80, 0x8f]
              : [0x80, 0xbf];
    for (let next = 1; next < length; next++) {
      const byte = bytes[at + next];
      const [min, max] = next === 1 ? [low, high] : [0x80, 0xbf];
      if (byte === undefined || byte < min || byte > max) return at;
    }
    at += length;
  }
  return bytes.length;
}
