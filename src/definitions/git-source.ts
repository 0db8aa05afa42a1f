import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { realpath } from "node:fs/promises";
import path from "node:path";
import { withoutApiKey } from "../settings/catalog";
import { UserError } from "../user-error";
import { isCatalogFile } from "./catalog";
import { filesThroughLinks, type TreeEntry } from "./git-links";
import type { SourceFile } from "./parsed-file";
import type { DefinitionProblem } from "./problem";
import { decodeUtf8 } from "./utf8";

/** Reading from git failed; the message says what to do (fetch the ref, run in a clone). */
export class GitSourceError extends UserError {
  override name = "GitSourceError";
}

export interface GitDefinitions {
  /** The full commit id the ref resolved to. */
  readonly commit: string;
  /**
   * Definition files at that commit, with paths spelled like the working-tree `dir`; symbolic
   * links are followed as on disk (`filesThroughLinks`).
   */
  readonly files: SourceFile[];
  /** Links at that commit that are not followed, each a problem at its path. */
  readonly problems: DefinitionProblem[];
}

/**
 * Reads the definition files under `dir` as they are at `ref`, with real git, from the
 * repository that contains `dir`. A directory that did not exist at `ref` yields no files.
 *
 * @example
 * const { commit, files } = await readDefinitionsAtRef("incidents", "origin/main");
 */
export async function readDefinitionsAtRef(dir: string, ref: string): Promise<GitDefinitions> {
  const absolute = path.resolve(dir);
  const probe = nearestExisting(absolute);
  const top = (
    await git(["rev-parse", "--show-toplevel"], probe).catch((error: unknown) => {
      if (error instanceof GitSourceError) throw error;
      throw new GitSourceError(
        `${path.normalize(dir)} is not inside a git repository (${reason(error)}); plan reads the base definitions with git, so run it in a clone of the repository.`,
      );
    })
  )
    .toString("utf8")
    .trim();
  const commit = (
    await git(
      ["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`],
      top,
    ).catch(() => {
      throw new GitSourceError(
        `the git ref "${ref}" does not name a commit in ${top}; fetch it first (for example: git fetch origin main) or pass a branch, tag or commit that exists.`,
      );
    })
  )
    .toString("utf8")
    .trim();

  const realTop = await realpath(top);
  const realProbe = await realpath(probe);
  const inside = path.relative(realTop, path.join(realProbe, path.relative(probe, absolute)));
  if (inside.startsWith("..") || path.isAbsolute(inside)) {
    throw new GitSourceError(`${path.normalize(dir)} is outside the git repository at ${top}.`);
  }
  const prefix = inside === "" ? "" : `${inside.split(path.sep).join("/")}/`;

  const listing = await git(
    ["ls-tree", "-r", "-z", "--full-tree", commit, "--", prefix || "."],
    top,
  );
  const entries: TreeEntry[] = [];
  for (const entry of listing.toString("utf8").split("\0")) {
    const match = /^(\d+) blob ([0-9a-f]+)\t(.*)$/s.exec(entry);
    if (!match || !match[3]!.startsWith(prefix)) continue;
    entries.push({
      oid: match[2]!,
      path: match[3]!.slice(prefix.length),
      link: match[1] === "120000",
    });
  }
  const shown = path.normalize(dir);
  const links = entries.filter((entry) => entry.link);
  const targets = new Map<string, string>();
  if (links.length > 0) {
    const read = parseBatch(
      await git(["cat-file", "--batch"], top, `${links.map((link) => link.oid).join("\n")}\n`),
    );
    for (const [index, link] of links.entries()) {
      targets.set(link.path, read[index]?.toString("utf8") ?? "");
    }
  }
  const { files: blobs, problems } = filesThroughLinks(entries, targets, shown);
  if (blobs.length === 0) return { commit, files: [], problems };

  const contents = parseBatch(
    await git(["cat-file", "--batch"], top, `${blobs.map((blob) => blob.oid).join("\n")}\n`),
  );
  return {
    commit,
    problems,
    files: blobs.map((blob, index) => {
      const decoded = decodeUtf8(contents[index] ?? Buffer.alloc(0));
      return {
        path: path.join(shown, blob.relative),
        ...("text" in decoded ? decoded : { text: "", refused: decoded.refused }),
        catalog: isCatalogFile(blob.relative),
      };
    }),
  };
}

/** Splits `git cat-file --batch` output (`<oid> <type> <size>\n<bytes>\n` repeated). */
function parseBatch(output: Buffer): Buffer[] {
  const texts: Buffer[] = [];
  let offset = 0;
  while (offset < output.length) {
    const headerEnd = output.indexOf(10, offset);
    const header = output.subarray(offset, headerEnd).toString("utf8").split(" ");
    const size = Number(header[2]);
    const start = headerEnd + 1;
    texts.push(output.subarray(start, start + size));
    offset = start + size + 1;
  }
  return texts;
}

function nearestExisting(absolute: string): string {
  let current = absolute;
  while (!existsSync(current)) {
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return current;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Runs git and returns its stdout; rejects with git's own message on failure. */
function git(args: readonly string[], cwd: string, input?: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, {
      cwd,
      env: withoutApiKey(),
      stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "ENOENT"
          ? new GitSourceError("git was not found on PATH; install git to use plan.")
          : error,
      ),
    );
    child.on("close", (code) => {
      if (code === 0) resolve(Buffer.concat(stdout));
      else {
        const message = Buffer.concat(stderr).toString("utf8").trim();
        reject(new Error(message || `git ${args[0]} exited with code ${code}`));
      }
    });
    if (input !== undefined && child.stdin) {
      // git closing early (bad object) surfaces through its exit code, not as EPIPE.
      child.stdin.on("error", () => undefined);
      child.stdin.end(input);
    }
  });
}
