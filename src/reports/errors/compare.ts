import type { ErrorGroup } from "../../api/schemas";
import type { ErrorReport, ErrorReportGroup, GroupChange } from "./report-schema";

/**
 * Classifies groups against an earlier report as they stream past, holding only that report;
 * a group of a check this run did not read is not "gone".
 */
export class ReportComparison {
  private readonly previous = new Map<string, ErrorReportGroup>();
  private readonly seen = new Set<string>();
  readonly counts: Record<GroupChange, number> = { new: 0, present: 0, gone: 0 };

  constructor(
    previous: ErrorReport,
    private readonly checks: ReadonlySet<string>,
  ) {
    for (const group of previous.groups) {
      if (group.change !== "gone") this.previous.set(group.id, group);
    }
  }

  classify(group: ErrorGroup): ErrorReportGroup {
    const change: GroupChange = this.previous.has(group.id) ? "present" : "new";
    this.seen.add(group.id);
    this.counts[change] += 1;
    return { ...group, change };
  }

  /** The groups of the earlier report not seen in this run, for the checks it covers. */
  gone(): ErrorReportGroup[] {
    const gone: ErrorReportGroup[] = [];
    for (const [id, group] of this.previous) {
      if (!this.seen.has(id) && this.checks.has(group.checkId)) {
        gone.push({ ...group, change: "gone" });
      }
    }
    this.counts.gone = gone.length;
    return gone;
  }
}
