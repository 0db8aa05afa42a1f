import type { Writable } from "node:stream";
// The modules themselves, not the reports' index: a cold export loads no other report.
import {
  type CheckLister,
  type CheckNames,
  checkNamed,
  readCheckNames,
} from "../../reports/shared/check-names";
import { openSink, type ReportSink } from "../../reports/shared/output";
import { safeLine } from "../../safe-text";
import type { CommandIo } from "../io";

/**
 * Writes a report through `write` to `--out`'s file (from the working directory, never through
 * a link), or to stdout without one, and resolves to what `write` resolved to. A file is all or
 * nothing: it is moved into place once `write` has finished, and removed when anything failed.
 */
export async function writeReport<T>(
  out: string | undefined,
  io: Pick<CommandIo, "stdout" | "cwd">,
  write: (sink: ReportSink) => Promise<T>,
): Promise<T> {
  const sink = openSink(out, io.stdout, io.cwd);
  try {
    const written = await write(sink);
    await sink.commit();
    return written;
  } catch (error) {
    await sink.abort();
    throw error;
  }
}

/**
 * Says on stderr, one line each, what was odd in the heartbeats a report read (events past
 * those that could be read, events without a readable time or a known state), since the
 * report itself is written all the same.
 */
export function warnAboutHeartbeats(
  stderr: Writable,
  heartbeats: readonly { readonly checkId: string; readonly warnings: readonly string[] }[],
  checkNames: CheckNames = {},
): void {
  for (const heartbeat of heartbeats) {
    for (const warning of heartbeat.warnings) {
      stderr.write(`warning: ${checkNamed(heartbeat.checkId, checkNames)}: ${warning}\n`);
    }
  }
}

/** Reads the checks' names once for a report, saying on stderr when they could not be read. */
export async function readNamesFor(
  client: { readonly checks: CheckLister },
  checkIds: readonly string[],
  stderr: Writable,
): Promise<CheckNames> {
  const read = await readCheckNames(client.checks, checkIds);
  if (read.warning !== undefined) stderr.write(`warning: ${safeLine(read.warning)}\n`);
  return read.names;
}
