import { readFile } from "node:fs/promises";
import { z } from "zod";
import { IncidentStatus } from "../../api/schemas";
import type { AppliedStatus } from "../../incident";
import { UserError } from "../../user-error";

/**
 * What the last apply set, per incident, from the stack output `incidents`
 * (`pulumi stack output incidents --json`): the status and the server time of the PUT. Only the
 * members drift needs are read; the rest of each entry is left alone.
 */
const AppliedOutput = z.record(
  z.string(),
  z.object({ applied: z.object({ status: IncidentStatus, at: z.string() }) }),
);

/** The applied file cannot be read or is not the stack output; says which and how to make it. */
export class AppliedFileError extends UserError {
  override name = "AppliedFileError";
}

/** Reads `--applied`: the stack output `incidents` as JSON, by incident id. */
export async function readAppliedFile(file: string): Promise<Map<string, AppliedStatus>> {
  const hint = `write it with \`pulumi stack output incidents --json > ${file}\``;
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new AppliedFileError(
      `--applied ${file} cannot be read (${(error as Error).message}); ${hint}.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppliedFileError(`--applied ${file} is not JSON; ${hint}.`);
  }
  const parsed = AppliedOutput.safeParse(json);
  if (!parsed.success) {
    throw new AppliedFileError(
      `--applied ${file} is not the stack output \`incidents\` (${z.prettifyError(parsed.error).split("\n").slice(0, 3).join("; ")}); ${hint}.`,
    );
  }
  return new Map(Object.entries(parsed.data).map(([id, entry]) => [id, entry.applied]));
}
