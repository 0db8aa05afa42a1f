import { expect } from "vitest";
import { buildPlan, type Plan } from "../../src/plan";
import { load } from "../definitions/helpers";

/** The plan of a change from `base` to `head` (file name to YAML), both valid, as `plan` builds it. */
export function planOf(base: Record<string, string>, head: Record<string, string>): Plan {
  const before = load(base);
  const after = load(head);
  expect(after.problems).toEqual([]);
  return buildPlan({
    dir: "incidents",
    head: after.definitions,
    base: { ref: "main", commit: "0123456789abcdef", ...before },
  });
}
