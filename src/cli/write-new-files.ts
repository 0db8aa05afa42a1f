import { lstatSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { UserError } from "../user-error";

/*
 * The one place `import` writes its files: every file new, inside the project, along folders
 * that are no links, all checked before the first is written. (A module that writes every
 * command's files this way replaces it.)
 */

/** A file to create: its path from the project's root, with `/`, and its text. */
export interface NewFile {
  readonly path: string;
  readonly content: string;
}

/** A file to write is in the way, or would land outside the project: nothing was written. */
export class FileInTheWayError extends UserError {
  override name = "FileInTheWayError";
  constructor(readonly problems: readonly string[]) {
    super(
      `Nothing was written: ${problems.join("; ")}. Move what is in the way and run again; nothing is ever overwritten.`,
    );
  }
}

/** What stands at a path without following a link: undefined when nothing does. */
function standing(file: string) {
  try {
    return lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Creates every file under `root`, or none: each path must stay inside `root`, every folder on
 * the way must be a folder (not a link, not a file) or not exist yet, and no file may exist.
 */
export function writeNewFiles(root: string, files: readonly NewFile[]): void {
  const problems: string[] = [];
  for (const file of files) {
    const target = path.resolve(root, file.path);
    const inside = path.relative(root, target);
    if (inside === "" || inside.startsWith("..") || path.isAbsolute(inside)) {
      problems.push(`${file.path} is not inside the project ${root}`);
      continue;
    }
    const parts = inside.split(path.sep);
    const blocked = parts.slice(0, -1).some((_, index) => {
      const folder = path.join(root, ...parts.slice(0, index + 1));
      const found = standing(folder);
      if (found === undefined || (!found.isSymbolicLink() && found.isDirectory())) return false;
      problems.push(
        `${path.relative(root, folder)} is ${found.isSymbolicLink() ? "a link" : "not a folder"}`,
      );
      return true;
    });
    if (!blocked && standing(target) !== undefined) problems.push(`${file.path} exists`);
  }
  if (problems.length > 0) throw new FileInTheWayError([...new Set(problems)]);
  for (const file of files) {
    const target = path.resolve(root, file.path);
    mkdirSync(path.dirname(target), { recursive: true });
    // wx: created here, or it fails; never a file or link that appeared since the check.
    writeFileSync(target, file.content, { flag: "wx" });
  }
}
