import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PathId, pathIdJsonSchema, pathIdPattern } from "../../src/api";

const accepts = (id: string) => PathId.safeParse(id).success;

describe("the OpenAPI document's rule for path ids", () => {
  const unicode = new RegExp(pathIdPattern(), "u");

  it("matches exactly the ids PathId accepts, for hand-picked ids", () => {
    const ids = [
      "inc-api-errors",
      "émoji-🙂",
      ".hidden",
      "a.",
      "...",
      ".",
      "..",
      "a/b",
      "a\\b",
      "100%",
      "a b",
      "tab\there",
      "zero\u200bwidth",
      "rtl\u202eoverride",
      "nul\u0000",
      "\u00a0",
      "line\u2028sep",
    ];
    for (const id of ids) {
      expect(unicode.test(id), id).toBe(accepts(id));
    }
  });

  it("matches exactly the ids PathId accepts, for generated ids up to its length limit", () => {
    fc.assert(
      // Well-formed text only: lone surrogates cannot travel in UTF-8, so the pattern leaves them out.
      fc.property(
        fc.string({ unit: "binary", maxLength: 40 }).filter((id) => id.isWellFormed()),
        (id) => {
          expect(unicode.test(id)).toBe(accepts(id));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("carries the length limit", () => {
    expect(pathIdJsonSchema()).toMatchObject({ type: "string", minLength: 1, maxLength: 255 });
  });
});
