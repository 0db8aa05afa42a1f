import { describe, expect, it } from "vitest";
import { unknownServiceMessage } from "../../src/definitions";

describe("a service the account does not have", () => {
  it("is named with the closest id when one is close enough to be a typo", () => {
    const known = new Set(["svc-api", "svc-checkout"]);
    expect(unknownServiceMessage("svc-chekout", known, "the list")).toBe(
      'service "svc-chekout" is not in the list: did you mean "svc-checkout"?',
    );
  });

  it("lists the first ten ids and counts the rest when none is close, then gives the advice", () => {
    const known = new Set(Array.from({ length: 13 }, (_, index) => `svc-${index + 10}`));
    expect(unknownServiceMessage("payments", known, "the list", (id) => `Correct ${id}.`)).toBe(
      'service "payments" is not in the list, which has svc-10, svc-11, svc-12, svc-13, svc-14, svc-15, svc-16, svc-17, svc-18, svc-19 and 3 more. Correct payments.',
    );
  });

  it("says so when the list is empty", () => {
    expect(unknownServiceMessage("svc-api", new Set(), "the list")).toBe(
      'service "svc-api" is not in the list, which has no services.',
    );
  });
});
