import { type ErrorGroup, PathId } from "../../api/schemas";
import { mapConcurrent, mergeAsync } from "../shared/async-streams";

/** The part of the API client that error reports read through. */
export interface ErrorGroupReader {
  allForCheck(
    checkId: string,
    options?: { pageSize?: number; onPage?: (page: number, count: number) => void },
  ): AsyncIterable<ErrorGroup>;
  get(id: string): Promise<ErrorGroup>;
}

/** Progress callbacks; the CLI draws them as bars on a TTY. */
export interface CollectProgress {
  onGroups?(checkId: string, page: number, count: number): void;
  onDetail?(): void;
  onCheckDone?(checkId: string): void;
}

export interface CollectOptions {
  checks: readonly string[];
  /** Fetch each group's full record, including `rootCauseAnalyses`. */
  details?: boolean;
  /** Detail requests in flight at once; the client's own limits still apply. @default 8 */
  detailConcurrency?: number;
  /** @default 100, the API maximum */
  pageSize?: number;
  progress?: CollectProgress;
}

/** Counters filled in while collecting, read once the stream is done. */
export interface CollectStats {
  byCheck: Record<string, number>;
  duplicatesSkipped: number;
  /**
   * Groups whose details were not read because their id, as the server sent it, cannot be a
   * path segment: they are written as listed, and the CLI warns about each.
   */
  detailsSkipped: { id: string; checkId: string; reason: string }[];
}

/**
 * Streams the error groups of every check: all checks at once, every page through the
 * client (which bounds concurrency and retries), deduplicated by id because a page may
 * shift while groups are being recorded. Only ids are remembered, not groups.
 */
export function collectErrorGroups(
  reader: ErrorGroupReader,
  options: CollectOptions,
): { groups: AsyncGenerator<ErrorGroup>; stats: CollectStats } {
  const stats: CollectStats = { byCheck: {}, duplicatesSkipped: 0, detailsSkipped: [] };
  const pageSize = options.pageSize ?? 100;
  const checks = [...new Set(options.checks)];
  for (const checkId of checks) stats.byCheck[checkId] = 0;

  async function* one(checkId: string): AsyncGenerator<ErrorGroup> {
    yield* reader.allForCheck(checkId, {
      pageSize,
      onPage: (page, count) => options.progress?.onGroups?.(checkId, page, count),
    });
    options.progress?.onCheckDone?.(checkId);
  }

  async function* unique(): AsyncGenerator<ErrorGroup> {
    const seen = new Set<string>();
    for await (const group of mergeAsync(checks.map(one))) {
      if (seen.has(group.id)) {
        stats.duplicatesSkipped += 1;
        continue;
      }
      seen.add(group.id);
      stats.byCheck[group.checkId] = (stats.byCheck[group.checkId] ?? 0) + 1;
      yield group;
    }
  }

  if (!options.details) return { groups: unique(), stats };
  const detailed = mapConcurrent(unique(), options.detailConcurrency ?? 8, async (group) => {
    const id = PathId.safeParse(group.id);
    if (!id.success) {
      const reason = `its id ${id.error.issues[0]?.message ?? "is not a safe path segment"}`;
      stats.detailsSkipped.push({ id: group.id, checkId: group.checkId, reason });
      options.progress?.onDetail?.();
      return group;
    }
    const full = await reader.get(group.id);
    options.progress?.onDetail?.();
    return full;
  });
  return { groups: detailed, stats };
}
