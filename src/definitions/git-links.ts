import path from "node:path";
import { isDefinitionFile } from "./load";
import type { DefinitionProblem } from "./problem";

/** A blob of `git ls-tree` under the definitions directory, its path relative to it. */
export interface TreeEntry {
  readonly oid: string;
  readonly path: string;
  /** A symbolic link: its blob holds the path it leads to. */
  readonly link: boolean;
}

/** A definitions file at a git ref: the blob to read, and the path it is shown as. */
export interface TreeFile {
  readonly oid: string;
  readonly relative: string;
}

/** The longest chain of links to links followed, as a system follows no more (ELOOP). */
const MAX_HOPS = 40;

/**
 * A git tree's definition files with its links followed as on disk: read under the link's
 * path, each folder once; a link out of the directory, or a loop, is a problem at its path.
 */
export function filesThroughLinks(
  entries: readonly TreeEntry[],
  targets: ReadonlyMap<string, string>,
  shownDir: string,
): { files: TreeFile[]; problems: DefinitionProblem[] } {
  const blobs = new Map(entries.filter((entry) => !entry.link).map((e) => [e.path, e.oid]));
  const links = entries.filter((entry) => entry.link).map((entry) => entry.path);
  const isFolder = (real: string) =>
    real === "" || entries.some((entry) => entry.path.startsWith(`${real}/`));
  const files: TreeFile[] = [];
  const problems: DefinitionProblem[] = [];
  const read = new Map<string, string>();
  let queue: { shown: string; real: string }[] = [];

  const readFolder = (shown: string, real: string) => {
    read.set(real, shown);
    const within = (entryPath: string) =>
      real === ""
        ? entryPath
        : entryPath.startsWith(`${real}/`)
          ? entryPath.slice(real.length + 1)
          : undefined;
    for (const [entryPath, oid] of blobs) {
      const rest = within(entryPath);
      if (rest === undefined) continue;
      const relative = path.posix.join(shown, rest);
      // Its folders, as the working tree registers those it reads (hidden ones are not read).
      const folders = rest.split("/").slice(0, -1);
      for (let depth = 1; depth <= folders.length; depth++) {
        const folder = folders.slice(0, depth).join("/");
        const as = path.posix.join(shown, folder);
        if (isVisible(as)) read.set(real === "" ? folder : `${real}/${folder}`, as);
      }
      if (isDefinitionFile(relative)) files.push({ oid, relative });
    }
    for (const link of links) {
      const rest = within(link);
      if (rest === undefined) continue;
      const relative = path.posix.join(shown, rest);
      if (isVisible(relative)) queue.push({ shown: relative, real: link });
    }
  };

  const problem = (shown: string, code: DefinitionProblem["code"], message: string) =>
    problems.push({ file: path.join(shownDir, shown), code, message });

  readFolder("", "");
  while (queue.length > 0) {
    const batch = queue.sort((a, b) => (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0));
    queue = [];
    for (const link of batch) {
      const target = resolve(link.real, targets);
      const file = isDefinitionFile(link.shown);
      if (target === undefined || target === ".." || target.startsWith("../")) {
        if (file) {
          problem(
            link.shown,
            "link-outside-directory",
            `the file is a symbolic link to ${targets.get(link.real) ?? "?"}, outside the definitions directory; only files inside it are read: copy the file in or remove the link`,
          );
        }
      } else if (blobs.has(target)) {
        if (file) files.push({ oid: blobs.get(target) as string, relative: link.shown });
      } else if (!isFolder(target)) {
        if (file) {
          problem(
            link.shown,
            "unreadable-file",
            `the file could not be read: it is a symbolic link that does not resolve (to ${targets.get(link.real) ?? "?"})`,
          );
        }
      } else if (!read.has(target)) {
        readFolder(link.shown, target);
      } else {
        const readAs = read.get(target) as string;
        problem(
          link.shown,
          "folder-read-twice",
          readAs === "" || link.shown.startsWith(`${readAs}/`)
            ? `the folder is a symbolic link to ${target || "."}, a folder that contains it, so it would be read without end; remove the link`
            : `the folder is a symbolic link to ${target}, which is read already as ${path.join(shownDir, readAs)}; a folder is read once: remove the link`,
        );
      }
    }
  }
  files.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
  return { files, problems };
}

/** Where a link leads, relative to the directory ("" for itself), through links to links. */
function resolve(link: string, targets: ReadonlyMap<string, string>): string | undefined {
  let at = link;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const target = targets.get(at);
    if (target === undefined) return at;
    if (path.posix.isAbsolute(target)) return undefined;
    const next = path.posix.normalize(path.posix.join(path.posix.dirname(at), target));
    at = next === "." ? "" : next.replace(/\/$/, "");
  }
  return undefined;
}

function isVisible(relative: string): boolean {
  return !relative.split("/").some((segment) => segment.startsWith("."));
}
