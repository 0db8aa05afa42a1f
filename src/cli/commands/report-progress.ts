import cliProgress from "cli-progress";
import type { CollectProgress } from "../../reports";

/** Draws listing (and, with --details, detail) progress on stderr. */
export interface ProgressDisplay extends CollectProgress {
  stop(): void;
}

/**
 * Progress bars for an error-group export. The number of pages is unknown until a check
 * returns a short page, so the total is an estimate: what has arrived plus one more page
 * for every check still being read.
 */
export function errorExportProgress(
  stream: NodeJS.WriteStream,
  checks: readonly string[],
  pageSize: number,
  details: boolean,
): ProgressDisplay {
  const bars = new cliProgress.MultiBar(
    {
      stream,
      clearOnComplete: false,
      hideCursor: true,
      format: "{label} |{bar}| {value}/{total} {unit}",
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  const open = new Set(checks);
  let listed = 0;
  const listing = bars.create(pageSize * open.size, 0, { label: "groups ", unit: "listed" });
  const fetching = details ? bars.create(0, 0, { label: "details", unit: "fetched" }) : undefined;
  const estimate = () => listed + pageSize * open.size;
  return {
    onGroups(_checkId, _page, count) {
      listed += count;
      listing.setTotal(Math.max(estimate(), 1));
      listing.update(listed);
      fetching?.setTotal(listed);
    },
    onCheckDone(checkId) {
      open.delete(checkId);
      listing.setTotal(Math.max(estimate(), 1));
    },
    onDetail() {
      fetching?.increment();
    },
    stop() {
      bars.stop();
    },
  };
}
