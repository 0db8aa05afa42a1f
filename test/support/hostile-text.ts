import { expect } from "vitest";

/**
 * What a hostile server or definition puts in a text to act on whoever reads it (issue 36):
 * terminal escape sequences, a hyperlink, a carriage return that overwrites the line, a bidi
 * override that reverses it, and lines a GitHub Actions runner reads as workflow commands.
 */
export const HOSTILE_TEXT = {
  "an escape sequence that clears the screen and colours": "\u001b[2J\u001b[31mred",
  "an OSC 8 hyperlink": "\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007",
  "a carriage return": "innocent\rOVERWRITTEN",
  "a right-to-left override": "report\u202Efdp.exe",
  "a zero-width space and a C1 control": "a\u200Bb\u009B31mc",
  "an annotation on a line of its own": "x\n::error file=incidents/a.yaml,line=1::forged",
  "a mask": "x\n::add-mask::hidden",
  "a stop of the commands": "x\n::stop-commands::token",
  "a command after Unicode blanks": "x\n \u00A0\u3000::warning::forged",
  "an old-style command inside a line": "x ##[error]forged",
} as const;

/** Every case as `[name, text]`, for `it.each`. */
export const HOSTILE_CASES = Object.entries(HOSTILE_TEXT);

/** Characters that act on a terminal or reorder text, raw. */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/**
 * Text bound for a terminal or a CI log holds no hidden character but line feeds, and no line
 * a runner reads as a command: none starts with `::` once its Unicode whitespace is trimmed
 * (the runner's `TrimStart`) unless `ownCommands` says it is one incident-sync wrote, and
 * none holds the older `##[` command but an annotation's, where the runner reads nothing more.
 */
export function expectSafeForLogs(text: string, ownCommands = 0): void {
  for (const line of text.split("\n")) {
    expect(line, JSON.stringify(line)).not.toMatch(HIDDEN);
    // In an annotation's line, the runner reads the annotation and nothing else.
    if (!/^::(error|warning|notice)[ :]/.test(line)) expect(line).not.toContain("##[");
  }
  const commands = text.split("\n").filter((line) => /^\p{White_Space}*::/u.test(line));
  expect(commands, commands.join("\n")).toHaveLength(ownCommands);
}
