import { type CheckNames, checkNamed } from "../../reports/shared/check-names";
import type { CommandIo } from "../io";
import { UsageError } from "../usage-error";

/** Which evidence a report reads: error groups of checks, or heartbeats. */
export type EvidenceKind = "checks" | "heartbeats";

const FIELD: Record<EvidenceKind, string> = {
  checks: "evidence.checks",
  heartbeats: "evidence.heartbeats",
};

/**
 * The checks a report covers: `--check`, else every one the definitions' `evidence` lists,
 * once each (`fromDefinitions`, which `announceEvidence` says once their names are read);
 * none, or invalid definitions, is an error saying what to do.
 */
export async function reportChecks(
  given: readonly string[] | undefined,
  kind: EvidenceKind,
  dirName: string,
  io: CommandIo,
): Promise<{ checks: string[]; fromDefinitions: boolean }> {
  if (given !== undefined && given.length > 0) {
    return { checks: [...new Set(given)], fromDefinitions: false };
  }
  // The definitions' loader (YAML and all) loads only when they are to be read.
  const { DefinitionsDir } = await import("./definitions-dir.js");
  const { InvalidDefinitionsError } = await import(
    "../../definitions/invalid-definitions-error.js"
  );
  const dir = new DefinitionsDir(io, dirName);
  const loaded = await dir.load();
  const missing = loaded.problems.find((problem) =>
    ["missing-directory", "not-a-directory", "empty-directory"].includes(problem.code),
  );
  if (missing !== undefined) {
    throw new UsageError(
      `No --check given, and ${dirName} holds no definitions whose ${FIELD[kind]} would say which to report: pass --check <id>, or --dir <definitions directory>.`,
    );
  }
  if (loaded.problems.length > 0) throw new InvalidDefinitionsError(dir.given, loaded.problems);
  const ids = new Set(
    loaded.definitions.flatMap(({ definition }) => definition.evidence?.[kind] ?? []),
  );
  if (ids.size === 0) {
    throw new UsageError(
      `No --check given, and no definition in ${dirName} lists ${FIELD[kind]}: there is nothing to report. Pass --check <id>, or list the ${kind} that belong with an incident in its definition's ${FIELD[kind]}.`,
    );
  }
  return { checks: [...ids], fromDefinitions: true };
}

/** Says on stderr which checks the definitions gave a report, each by its name. */
export function announceEvidence(
  io: CommandIo,
  kind: EvidenceKind,
  dirName: string,
  checks: readonly string[],
  names: CheckNames,
): void {
  const named = checks.map((checkId) => checkNamed(checkId, names)).join(", ");
  io.stderr.write(
    `Reporting the ${kind} the definitions in ${dirName} list as evidence: ${named}.\n`,
  );
}
