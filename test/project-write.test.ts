import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  checkProjectWrite,
  openReplacement,
  ProjectWriteError,
  writeIntoProject,
} from "../src/project-write";

const scratch = mkdtempSync(path.join(tmpdir(), "incident-sync-project-write-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let count = 0;
/** A new project folder and, beside it, a folder outside the project. */
function fresh(): { root: string; outside: string } {
  count += 1;
  const root = path.join(scratch, `project-${count}`);
  const outside = path.join(scratch, `outside-${count}`);
  mkdirSync(root);
  mkdirSync(outside);
  return { root, outside };
}

/** Every entry under `dir`, relative, sorted; links listed, not followed. */
function entriesUnder(dir: string, prefix = ""): string[] {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .flatMap((entry) => {
      const name = path.posix.join(prefix, entry.name);
      return entry.isDirectory() ? [`${name}/`, ...entriesUnder(dir, name)] : [name];
    })
    .sort();
}

function refusalOf(run: () => unknown): ProjectWriteError {
  try {
    run();
  } catch (error) {
    if (error instanceof ProjectWriteError) return error;
    throw error;
  }
  throw new Error("the write was not refused");
}

describe("writeIntoProject", () => {
  it("creates the files and their folders, and adds only the lines a held file lacks", () => {
    const { root } = fresh();
    writeFileSync(path.join(root, ".gitignore"), "dist\nnode_modules/");
    const written = writeIntoProject(
      root,
      {
        create: [
          { path: "a.txt", text: "a\n" },
          { path: "deep/er/b.txt", text: "b\n" },
        ],
        hold: [{ path: ".gitignore", lines: ["node_modules/", ".cache/"] }],
      },
      "test",
    );
    expect(written).toEqual({
      created: ["a.txt", "deep/er/b.txt"],
      added: [{ path: ".gitignore", lines: [".cache/"] }],
    });
    expect(readFileSync(path.join(root, "deep", "er", "b.txt"), "utf8")).toBe("b\n");
    expect(readFileSync(path.join(root, ".gitignore"), "utf8")).toBe(
      "dist\nnode_modules/\n.cache/\n",
    );
  });

  it("refuses every link, dangling or not, at a target or on the way, naming each, before writing anything", () => {
    const { root, outside } = fresh();
    symlinkSync(outside, path.join(root, "linked"));
    symlinkSync(path.join(outside, "gone.txt"), path.join(root, "dangling.txt"));
    writeFileSync(path.join(outside, "ignore"), "mine\n");
    symlinkSync(path.join(outside, "ignore"), path.join(root, ".gitignore"));
    const before = entriesUnder(root);
    const error = refusalOf(() =>
      writeIntoProject(
        root,
        {
          create: [
            { path: "first.txt", text: "1\n" },
            { path: "linked/in.txt", text: "2\n" },
            { path: "dangling.txt", text: "3\n" },
          ],
          hold: [{ path: ".gitignore", lines: ["x/"] }],
        },
        "test",
      ),
    );
    expect(error.refusals).toEqual([
      { path: "linked", kind: "behind-link", target: "linked/in.txt" },
      { path: "dangling.txt", kind: "link", target: "dangling.txt" },
      { path: ".gitignore", kind: "link", target: ".gitignore" },
    ]);
    expect(error.message).toBe(
      `test wrote nothing: linked is a symbolic link, and linked/in.txt would be written through it; dangling.txt is a symbolic link; .gitignore is a symbolic link. It writes nothing through a symbolic link or outside ${root}: move each away, or replace a link with the real folder or file, and run test again.`,
    );
    expect(entriesUnder(root)).toEqual(before);
    expect(entriesUnder(outside)).toEqual(["ignore"]);
    expect(readFileSync(path.join(outside, "ignore"), "utf8")).toBe("mine\n");
  });

  it("refuses a file in the way of a folder, a path leaving the project and anything already there", () => {
    const { root } = fresh();
    writeFileSync(path.join(root, "plain"), "");
    mkdirSync(path.join(root, "taken"));
    expect(
      checkProjectWrite(root, {
        create: [
          { path: "plain/x.txt", text: "" },
          { path: "../escape.txt", text: "" },
          { path: "/etc/absolute", text: "" },
          { path: "taken", text: "" },
          { path: "plain", text: "" },
        ],
        hold: [{ path: "taken", lines: ["x"] }],
      }),
    ).toEqual([
      { path: "plain", kind: "not-a-folder", target: "plain/x.txt" },
      { path: "../escape.txt", kind: "outside", target: "../escape.txt" },
      { path: "/etc/absolute", kind: "outside", target: "/etc/absolute" },
      { path: "taken", kind: "exists", target: "taken" },
      { path: "plain", kind: "exists", target: "plain" },
      { path: "taken", kind: "not-a-regular-file", target: "taken" },
    ]);
  });

  it("takes back what it wrote when a write fails part-way", () => {
    const { root } = fresh();
    writeFileSync(path.join(root, ".gitignore"), "dist\n");
    // Both pass the check (neither exists), and the second cannot be made: `a` is a file by then.
    const error = refusalOf(() =>
      writeIntoProject(
        root,
        {
          create: [
            { path: "made/first.txt", text: "1\n" },
            { path: "a", text: "" },
            { path: "a/b.txt", text: "" },
          ],
          hold: [{ path: ".gitignore", lines: ["x/"] }],
        },
        "test",
      ),
    );
    expect(error.refusals).toEqual([{ path: "a", kind: "not-a-folder", target: "a/b.txt" }]);
    expect(entriesUnder(root)).toEqual([".gitignore"]);
    expect(readFileSync(path.join(root, ".gitignore"), "utf8")).toBe("dist\n");
  });
});

describe("openReplacement", () => {
  it("writes beside the target and moves the file into place on commit, replacing a regular file", () => {
    const { root } = fresh();
    writeFileSync(path.join(root, "report.json"), "old\n");
    const replacement = openReplacement(root, "report.json", "test");
    writeSync(replacement.fd, "new\n");
    closeSync(replacement.fd);
    expect(readFileSync(path.join(root, "report.json"), "utf8")).toBe("old\n");
    replacement.commit();
    expect(readFileSync(path.join(root, "report.json"), "utf8")).toBe("new\n");
    expect(existsSync(`${path.join(root, "report.json")}.partial`)).toBe(false);
  });

  it("refuses a target that is a link and a folder on the way that is one, and writes nothing", () => {
    const { root, outside } = fresh();
    writeFileSync(path.join(outside, "kept"), "kept\n");
    symlinkSync(path.join(outside, "kept"), path.join(root, "report.json"));
    symlinkSync(outside, path.join(root, "reports"));
    expect(refusalOf(() => openReplacement(root, "report.json", "test")).refusals).toEqual([
      { path: "report.json", kind: "link", target: "report.json" },
    ]);
    expect(refusalOf(() => openReplacement(root, "reports/r.json", "test")).refusals).toEqual([
      { path: "reports", kind: "behind-link", target: "reports/r.json" },
    ]);
    expect(entriesUnder(outside)).toEqual(["kept"]);
    expect(readFileSync(path.join(outside, "kept"), "utf8")).toBe("kept\n");
    expect(lstatSync(path.join(root, "report.json")).isSymbolicLink()).toBe(true);
  });

  it("refuses at commit a target that became a link meanwhile, and removes its partial file", () => {
    const { root, outside } = fresh();
    const replacement = openReplacement(root, "late.json", "test");
    closeSync(replacement.fd);
    symlinkSync(path.join(outside, "late.json"), path.join(root, "late.json"));
    expect(refusalOf(() => replacement.commit()).refusals).toEqual([
      { path: "late.json", kind: "link", target: "late.json" },
    ]);
    expect(entriesUnder(root)).toEqual(["late.json"]);
    expect(entriesUnder(outside)).toEqual([]);
  });
});
