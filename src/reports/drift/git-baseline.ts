import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { withoutApiKey } from "../../settings/catalog";

const run = promisify(execFile);

/**
 * The commit time of the last commit that touched `file`, or `undefined` when the file
 * is not committed or git is not available. That commit is what the declaration says;
 * updates posted after it were not written through git.
 */
export async function lastCommitTime(file: string): Promise<Date | undefined> {
  try {
    const { stdout } = await run("git", ["log", "-1", "--format=%cI", "--", path.basename(file)], {
      cwd: path.dirname(path.resolve(file)),
      env: withoutApiKey(),
      timeout: 10_000,
    });
    const text = stdout.trim();
    if (!text) return undefined;
    const at = new Date(text);
    return Number.isNaN(at.getTime()) ? undefined : at;
  } catch {
    return undefined;
  }
}
