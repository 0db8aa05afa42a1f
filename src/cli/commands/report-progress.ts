import cliProgress from "cli-progress";
import type { CollectProgress } from "../../reports";
import { formatSeconds, secondsLeft } from "./time-estimate";

/** Draws listing (and, with --details, detail) progress on stderr. */
export interface ProgressDisplay extends CollectProgress {
  stop(): void;
}

export interface ExportProgressOptions {
  readonly checks: readonly string[];
  readonly pageSize: number;
  readonly details: boolean;
  /** The client's rate limit, for the time estimate. */
  readonly requestsPerMinute: number;
  /** The clock; a test can pin it. @default Date.now */
  readonly now?: () => number;
}

/**
 * Progress of an error-group export: the total is an estimate (what arrived plus a page a check
 * still read), the time left at the slower of the pace so far and the rate limit.
 */
export function errorExportProgress(
  stream: NodeJS.WriteStream,
  options: ExportProgressOptions,
): ProgressDisplay {
  const { pageSize, details } = options;
  const now = options.now ?? Date.now;
  const bars = new cliProgress.MultiBar(
    {
      stream,
      clearOnComplete: false,
      hideCursor: true,
      format: "{label} |{bar}| {value}/{total} {unit}{left}",
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = now();
  const open = new Set(options.checks);
  let listed = 0;
  let pages = 0;
  let fetched = 0;
  const listing = bars.create(pageSize * open.size, 0, {
    label: "groups ",
    unit: "listed",
    left: "",
  });
  const fetching = details
    ? bars.create(0, 0, { label: "details", unit: "fetched", left: "" })
    : undefined;
  const estimate = () => listed + pageSize * open.size;
  const showTimeLeft = () => {
    // At least one more page per open check; every listed group not yet fetched in detail.
    const remaining = open.size + (details ? listed - fetched : 0);
    const seconds = secondsLeft({
      done: pages + fetched,
      remaining,
      elapsedMs: now() - started,
      requestsPerMinute: options.requestsPerMinute,
    });
    const left =
      remaining > 0 ? ` · ${open.size > 0 ? "at least " : ""}${formatSeconds(seconds)} left` : "";
    (fetching ?? listing).update({ left });
  };
  return {
    onGroups(_checkId, _page, count) {
      pages += 1;
      listed += count;
      listing.setTotal(Math.max(estimate(), 1));
      listing.update(listed);
      fetching?.setTotal(listed);
      showTimeLeft();
    },
    onCheckDone(checkId) {
      open.delete(checkId);
      listing.setTotal(Math.max(estimate(), 1));
      showTimeLeft();
    },
    onDetail() {
      fetched += 1;
      fetching?.increment();
      showTimeLeft();
    },
    stop() {
      bars.stop();
    },
  };
}
