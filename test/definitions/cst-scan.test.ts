import { describe, expect, it } from "vitest";
import { type CST, Parser } from "yaml";
import { scanDocument } from "../../src/definitions/cst-scan";

function documentOf(text: string): CST.Document {
  const document = [...new Parser().parse(text)].find((token) => token.type === "document");
  if (document?.type !== "document") throw new Error("no document in the test input");
  return document;
}

describe("measuring a document's syntax tree", () => {
  it("finds the first list or mapping deeper than the limit, in flow, block and compact styles", () => {
    const flow = `a: ${"[".repeat(6)}${"]".repeat(6)}`;
    const block = Array.from({ length: 6 }, (_, depth) => `${" ".repeat(depth)}k:`).join("\n");
    const compact = `${"- ".repeat(6)}x`;
    expect(scanDocument(documentOf(flow), 4).tooDeepAt).toBe(6);
    expect(scanDocument(documentOf(block), 4).tooDeepAt).toBe(block.indexOf("    k:") + 4);
    expect(scanDocument(documentOf(compact), 4).tooDeepAt).toBe(8);
    expect(scanDocument(documentOf(flow), 7).tooDeepAt).toBeUndefined();
  });

  it("lists the brackets and quotes that are never closed, where they open", () => {
    const scan = scanDocument(documentOf(`a: [x, {b: "c\n`), 32);
    expect(scan.unclosed).toEqual([
      { offset: 3, opener: "[" },
      { offset: 7, opener: "{" },
      { offset: 11, opener: '"' },
    ]);
    expect(scanDocument(documentOf("a: ['it''s', \"q\\\"\"]"), 32).unclosed).toEqual([]);
  });
});
