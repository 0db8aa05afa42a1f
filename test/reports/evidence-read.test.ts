import { describe, expect, it } from "vitest";
import type { ErrorGroup } from "../../src/api";
import { type EvidenceReader, readEvidence } from "../../src/reports/evidence/read";
import { errorGroup } from "../support/api-fixtures";

const now = new Date("2026-11-26T12:00:00.000Z");
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

/** A reader whose check lists `groups` in the order given. */
function listing(groups: ErrorGroup[]): EvidenceReader {
  return {
    heartbeats: { latestEvent: async () => ({}) },
    errorGroups: {
      async *allForCheck() {
        yield* groups;
      },
    },
  };
}

describe("a check's error groups of the last hour", () => {
  const groups = [
    { ...errorGroup("old", minutesAgo(180)), firstSeen: minutesAgo(600) },
    { ...errorGroup("seen", minutesAgo(30)), firstSeen: minutesAgo(300) },
    { ...errorGroup("new", minutesAgo(5)), firstSeen: minutesAgo(20) },
  ];

  it("counts the same whether the service lists them newest or oldest first", async () => {
    for (const order of [[...groups].reverse(), groups]) {
      const { checks } = await readEvidence(listing(order), { checks: ["chk_1"] }, now);
      expect(checks).toEqual([{ checkId: "chk_1", newInLastHour: 1, seenInLastHour: 2 }]);
    }
  });

  it("says a check that lists no group at all may not exist, or never recorded an error", async () => {
    const { checks } = await readEvidence(listing([]), { checks: ["chk_1"] }, now);
    expect(checks[0]?.absent).toContain("never recorded an error");
  });
});
