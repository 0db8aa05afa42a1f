/**
 * The size the reliability files run at, from INCIDENT_SYNC_RELIABILITY_SIZE: `full` (the
 * default, what `npm run reliability` records and BENCHMARKS.md reports) or `smallest`, a few
 * incidents and two kills, which `.ci/run` runs in every CI run so each file is shown to run.
 */
export type ReliabilitySize = "full" | "smallest";

export const RELIABILITY_SIZE_VARIABLE = "INCIDENT_SYNC_RELIABILITY_SIZE";

/** The size `env` asks for; a value that is neither size is refused rather than guessed. */
export function reliabilitySize(env: NodeJS.ProcessEnv = process.env): ReliabilitySize {
  const value = env[RELIABILITY_SIZE_VARIABLE];
  if (value === undefined || value === "" || value === "full") return "full";
  if (value === "smallest") return "smallest";
  throw new Error(
    `${RELIABILITY_SIZE_VARIABLE} is "${value}": set it to full or smallest, or leave it unset (full)`,
  );
}

/** The value for the size this run is at. */
export function sized<T>(values: Record<ReliabilitySize, T>): T {
  return values[reliabilitySize()];
}

/**
 * How many of `kills` must land where they prove something (while the engine works, among the
 * writes): most at the full size; at the smallest, two kills are too few for a share to mean
 * anything, so the run shows the file runs and converges after each kill, as the full one does.
 */
export function mostOf(kills: number): number {
  return sized({ full: kills / 2, smallest: 0 });
}
