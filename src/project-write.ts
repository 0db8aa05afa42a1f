import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  type Stats,
  unlinkSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import { safeLine } from "./safe-text";
import { UserError } from "./user-error";

/**
 * The one way a command writes into a project (`init`, `import`, a report's `--out`): every
 * target and every folder on the way is checked before anything is written, no link is
 * followed (a link, even a dangling one, is refused, and so is anything behind one), files are
 * created with no-follow exclusive opens, and a failure takes back what was written.
 */

/** A file to create, by its path relative to the project's root (`/` or the platform's separator). */
export interface NewFile {
  readonly path: string;
  readonly text: string;
}

/** Lines a file must hold (such as `.gitignore`'s): those it lacks are appended; it is created when absent. */
export interface HeldLines {
  readonly path: string;
  readonly lines: readonly string[];
}

/** What a command writes into a project: files to create (never replaced), then lines to add. */
export interface ProjectWrite {
  readonly create: readonly NewFile[];
  readonly hold?: readonly HeldLines[];
}

/** What was written: the files created, in order, and the lines each held file was given. */
export interface ProjectWritten {
  readonly created: readonly string[];
  readonly added: readonly { readonly path: string; readonly lines: readonly string[] }[];
}

/** Why a path is refused. */
export type RefusalKind =
  /** Something is there already (a file, a folder, a pipe); nothing is overwritten. */
  | "exists"
  /** The target is a symbolic link, dangling or not. */
  | "link"
  /** A folder on the way is a symbolic link (`path` names it). */
  | "behind-link"
  /** Something on the way that must be a folder is not one (`path` names it). */
  | "not-a-folder"
  /** A file to append to, or to replace, is not a regular file. */
  | "not-a-regular-file"
  /** The path leaves the root (absolute, or through `..`). */
  | "outside";

/** One path refused, relative to the root with `/`, and why. */
export interface WriteRefusal {
  readonly path: string;
  readonly kind: RefusalKind;
  /** The file that was to be written, when `path` names a folder on its way. */
  readonly target: string;
}

/** Nothing was written: each refusal names a path inside `root` and why. */
export class ProjectWriteError extends UserError {
  override name = "ProjectWriteError";
  constructor(
    readonly root: string,
    readonly refusals: readonly WriteRefusal[],
    readonly command: string,
  ) {
    const overwrites = refusals.some((refusal) => refusal.kind === "exists");
    super(
      `${command} wrote nothing: ${refusals.map(refusalText).join("; ")}. It writes nothing through a symbolic link or outside ${safeLine(root)}${overwrites ? ", and overwrites nothing" : ""}: move ${refusals.length === 1 ? "it" : "each"} away, or replace a link with the real folder or file, and run ${command} again.`,
    );
  }
}

function refusalText(refusal: WriteRefusal): string {
  const where = safeLine(refusal.path);
  const target = safeLine(refusal.target);
  switch (refusal.kind) {
    case "exists":
      return `${where} exists already`;
    case "link":
      return `${where} is a symbolic link`;
    case "behind-link":
      return `${where} is a symbolic link, and ${target} would be written through it`;
    case "not-a-folder":
      return `${where} is not a folder, and ${target} would be written in it`;
    case "not-a-regular-file":
      return `${where} is not a regular file`;
    case "outside":
      return `${where} is outside the project`;
  }
}

const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW;
const APPEND_FLAGS =
  constants.O_WRONLY | constants.O_APPEND | NO_FOLLOW | (constants.O_NONBLOCK ?? 0);
const READ_FLAGS = constants.O_RDONLY | NO_FOLLOW | (constants.O_NONBLOCK ?? 0);

/** `file` relative to `root` as its parts, or `undefined` when it leaves the root. */
function partsOf(file: string): string[] | undefined {
  const normal = path.posix.normalize(file.replaceAll("\\", "/"));
  if (
    path.posix.isAbsolute(normal) ||
    normal === "." ||
    normal === ".." ||
    normal.startsWith("../")
  ) {
    return undefined;
  }
  return normal.replace(/\/+$/, "").split("/");
}

function lstatOrUndefined(file: string): Stats | undefined {
  try {
    return lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * The refusal for the folders on the way to `parts` (the last part excluded), or `undefined`
 * when each is a real folder or missing; a missing folder means everything below it is too.
 */
function wayRefusal(root: string, parts: readonly string[]): WriteRefusal | "missing" | undefined {
  const target = parts.join("/");
  for (let index = 0; index < parts.length - 1; index++) {
    const folder = parts.slice(0, index + 1).join("/");
    const info = lstatOrUndefined(path.join(root, folder));
    if (info === undefined) return "missing";
    if (info.isSymbolicLink()) return { path: folder, kind: "behind-link", target };
    if (!info.isDirectory()) return { path: folder, kind: "not-a-folder", target };
  }
  return undefined;
}

/** What `root` is: a folder, missing, or a refusal of the whole write. */
function rootRefusal(root: string): "missing" | WriteRefusal | undefined {
  let info: Stats;
  try {
    info = lstatSync(root, { throwIfNoEntry: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw error;
  }
  // The root is where the user pointed; a link there is theirs to follow.
  if (info.isSymbolicLink() || info.isDirectory()) return undefined;
  return { path: ".", kind: "not-a-folder", target: "." };
}

interface CheckedFile {
  readonly parts: readonly string[];
  readonly relative: string;
}

interface CheckedHold extends CheckedFile {
  readonly existed: boolean;
  readonly lines: readonly string[];
  /** What to append (the missing lines, after a newline if the file does not end in one). */
  readonly addition: string;
}

interface Checked {
  readonly refusals: WriteRefusal[];
  readonly create: CheckedFile[];
  readonly hold: CheckedHold[];
}

function checkTarget(
  root: string,
  file: string,
  allow: "nothing" | "regular-file",
): { refusal?: WriteRefusal; parts?: string[]; found?: Stats } {
  const parts = partsOf(file);
  if (parts === undefined) return { refusal: { path: file, kind: "outside", target: file } };
  const relative = parts.join("/");
  const way = wayRefusal(root, parts);
  if (way === "missing") return { parts };
  if (way !== undefined) return { refusal: way, parts };
  const found = lstatOrUndefined(path.join(root, ...parts));
  if (found === undefined) return { parts };
  if (found.isSymbolicLink())
    return { refusal: { path: relative, kind: "link", target: relative } };
  if (allow === "regular-file") {
    return found.isFile()
      ? { parts, found }
      : { refusal: { path: relative, kind: "not-a-regular-file", target: relative } };
  }
  return { refusal: { path: relative, kind: "exists", target: relative } };
}

/** A regular file's text, read without following a link or waiting on a pipe. */
function readRegular(file: string): string {
  const fd = openSync(file, READ_FLAGS);
  try {
    if (!fstatSync(fd).isFile()) throw notRegularError(file);
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

function notRegularError(file: string): Error {
  return Object.assign(new Error(`${file} is not a regular file`), { code: "EINVAL" });
}

function checkWrite(root: string, write: ProjectWrite): Checked {
  const checked: Checked = { refusals: [], create: [], hold: [] };
  const rootState = rootRefusal(root);
  if (rootState !== undefined && rootState !== "missing") {
    checked.refusals.push(rootState);
    return checked;
  }
  const seen = new Set<string>();
  const refuse = (refusal: WriteRefusal) => {
    const key = `${refusal.kind}:${refusal.path}`;
    if (!seen.has(key)) checked.refusals.push(refusal);
    seen.add(key);
  };
  for (const file of write.create) {
    const { refusal, parts } = checkTarget(root, file.path, "nothing");
    if (refusal) refuse(refusal);
    else if (parts) checked.create.push({ parts, relative: parts.join("/") });
  }
  for (const held of write.hold ?? []) {
    const { refusal, parts, found } = checkTarget(root, held.path, "regular-file");
    if (refusal) refuse(refusal);
    else if (parts) {
      const text = found ? readRegular(path.join(root, ...parts)) : "";
      const present = new Set(text.split(/\r?\n/).map((line) => line.trim()));
      const lines = held.lines.filter((line) => !present.has(line));
      const separator = text === "" || text.endsWith("\n") ? "" : "\n";
      checked.hold.push({
        parts,
        relative: parts.join("/"),
        existed: found !== undefined,
        lines,
        addition: lines.length > 0 ? `${separator}${lines.join("\n")}\n` : "",
      });
    }
  }
  return checked;
}

/**
 * Every refusal `write` would meet in `root`, found without writing anything: a target that
 * exists (a dangling link too), a link at a target or on the way, a path leaving the root.
 */
export function checkProjectWrite(root: string, write: ProjectWrite): readonly WriteRefusal[] {
  return checkWrite(root, write).refusals;
}

/** Undoes a write that failed part-way, newest first. */
class Undo {
  private readonly steps: (() => void)[] = [];
  add(step: () => void): void {
    this.steps.push(step);
  }
  run(): void {
    for (const step of this.steps.reverse()) {
      try {
        step();
      } catch {
        // Best effort: the error that stopped the write is the one to report.
      }
    }
  }
}

/**
 * Creates the folders of `parts` under `root` (the last part excluded), one at a time and
 * never through a link: an existing one must be a real folder.
 */
function makeWay(root: string, parts: readonly string[], undo: Undo, command: string): void {
  for (let index = 0; index < parts.length - 1; index++) {
    const folder = path.join(root, ...parts.slice(0, index + 1));
    try {
      mkdirSync(folder);
      undo.add(() => rmdirSync(folder));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const info = lstatSync(folder);
      if (!info.isDirectory()) {
        throw new ProjectWriteError(
          root,
          [
            {
              path: parts.slice(0, index + 1).join("/"),
              kind: info.isSymbolicLink() ? "behind-link" : "not-a-folder",
              target: parts.join("/"),
            },
          ],
          command,
        );
      }
    }
  }
}

function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
}

/**
 * Writes `write` into `root` (created if missing) after checking all of it, or writes nothing:
 * throws `ProjectWriteError` naming every refused path (`command` names who refuses, such as
 * `init`). A write failing part-way (a disk full, a link planted meanwhile) is taken back.
 */
export function writeIntoProject(
  root: string,
  write: ProjectWrite,
  command: string,
): ProjectWritten {
  const checked = checkWrite(root, write);
  if (checked.refusals.length > 0) throw new ProjectWriteError(root, checked.refusals, command);
  const undo = new Undo();
  try {
    mkdirSync(root, { recursive: true });
    const texts = new Map(write.create.map((file) => [partsOf(file.path)?.join("/"), file.text]));
    for (const file of checked.create) {
      makeWay(root, file.parts, undo, command);
      const target = path.join(root, ...file.parts);
      const fd = openSync(target, CREATE_FLAGS, 0o666);
      undo.add(() => unlinkSync(target));
      try {
        writeAll(fd, texts.get(file.relative) ?? "");
      } finally {
        closeSync(fd);
      }
    }
    for (const held of checked.hold) {
      if (held.addition === "") continue;
      makeWay(root, held.parts, undo, command);
      const target = path.join(root, ...held.parts);
      const fd = openSync(target, held.existed ? APPEND_FLAGS : CREATE_FLAGS, 0o666);
      try {
        const info = fstatSync(fd);
        if (!info.isFile()) throw notRegularError(target);
        if (held.existed) undo.add(() => truncateTo(target, info.size));
        else undo.add(() => unlinkSync(target));
        writeAll(fd, held.addition);
      } finally {
        closeSync(fd);
      }
    }
  } catch (error) {
    undo.run();
    throw error;
  }
  return {
    created: checked.create.map((file) => file.relative),
    added: checked.hold
      .filter((held) => held.lines.length > 0)
      .map((held) => ({ path: held.relative, lines: held.lines })),
  };
}

function truncateTo(file: string, size: number): void {
  const fd = openSync(file, constants.O_WRONLY | NO_FOLLOW);
  try {
    ftruncateSync(fd, size);
  } finally {
    closeSync(fd);
  }
}

/** A file being written beside its target, moved into place on `commit`. */
export interface Replacement {
  /** The open partial file, created with a no-follow exclusive open. */
  readonly fd: number;
  /** Where the partial file is: beside the target, `.partial` appended to its name. */
  readonly partial: string;
  /** Checks the way again and moves the partial file into place. */
  commit(): void;
  /** Removes the partial file. */
  abort(): void;
}

/**
 * Opens a replacement of `file` (relative to `root`) for writing: `file` may be a regular file,
 * which `commit` replaces, or missing, and its folders must exist; nothing on the way may be a
 * link. The partial file `<file>.partial` is made anew (whatever is at its name is removed).
 */
export function openReplacement(root: string, file: string, command: string): Replacement {
  const rootState = rootRefusal(root);
  const refuse = (refusal: WriteRefusal): never => {
    throw new ProjectWriteError(root, [refusal], command);
  };
  if (rootState !== undefined && rootState !== "missing") refuse(rootState);
  const checked = checkTarget(root, file, "regular-file");
  if (checked.refusal) refuse(checked.refusal);
  const parts = checked.parts ?? [];
  const target = path.join(root, ...parts);
  const partial = `${target}.partial`;
  const partialCheck = checkTarget(root, `${parts.join("/")}.partial`, "regular-file");
  if (
    partialCheck.refusal?.kind === "behind-link" ||
    partialCheck.refusal?.kind === "not-a-folder"
  ) {
    refuse(partialCheck.refusal);
  }
  rmSync(partial, { force: true });
  const fd = openSync(partial, CREATE_FLAGS, 0o666);
  return {
    fd,
    partial,
    commit: () => {
      const again = checkTarget(root, parts.join("/"), "regular-file");
      if (again.refusal) {
        rmSync(partial, { force: true });
        refuse(again.refusal);
      }
      renameSync(partial, target);
    },
    abort: () => rmSync(partial, { force: true }),
  };
}
