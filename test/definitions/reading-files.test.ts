import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadDefinitions } from "../../src/definitions";
import { definitionYaml, problemLines } from "./helpers";

const created: string[] = [];
afterEach(async () => {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A definitions directory `incidents/` inside a fresh folder, and that folder. */
async function tempDirs(): Promise<{ root: string; dir: string }> {
  const root = await mkdtemp(path.join(tmpdir(), "incident-sync-read-"));
  created.push(root);
  const dir = path.join(root, "incidents");
  await mkdir(dir);
  return { root, dir };
}

/** Problems with the temporary folder shown as `<root>`. */
function shown(root: string, problems: Parameters<typeof problemLines>[0]): string {
  return problemLines(problems).replaceAll(root, "<root>");
}

describe("reading definition files from disk", () => {
  it("reads only regular files: a link out of the directory and a pipe are refused, never opened", async () => {
    const { root, dir } = await tempDirs();
    await writeFile(path.join(dir, "api.yaml"), definitionYaml());
    await writeFile(path.join(root, "outside.yaml"), definitionYaml({ id: "inc-outside" }));
    await symlink(path.join(root, "outside.yaml"), path.join(dir, "outside.yaml"));
    await symlink("/dev/zero", path.join(dir, "zero.yaml"));
    execFileSync("mkfifo", [path.join(dir, "pipe.yaml")]);
    const result = await loadDefinitions(dir);
    expect(result.definitions.map((loaded) => loaded.definition.id)).toEqual(["inc-api-errors"]);
    expect(shown(root, result.problems)).toMatchInlineSnapshot(`
      "<root>/incidents/outside.yaml:1:1 link-outside-directory: the file is a symbolic link to <root>/outside.yaml, outside the definitions directory; only files inside it are read: copy the file in or remove the link
      <root>/incidents/pipe.yaml:1:1 not-a-regular-file: the file is a named pipe (FIFO), not a regular file; only regular files are read: replace it with one or remove it
      <root>/incidents/zero.yaml:1:1 link-outside-directory: the file is a symbolic link to /dev/zero, outside the definitions directory; only files inside it are read: copy the file in or remove the link"
    `);
  });

  it("follows a link to a file inside the directory, and refuses a link to a pipe there without waiting", async () => {
    const { root, dir } = await tempDirs();
    await mkdir(path.join(dir, "shared"));
    await writeFile(path.join(dir, "shared", "api.txt"), definitionYaml());
    await symlink(path.join("shared", "api.txt"), path.join(dir, "api-link.yaml"));
    execFileSync("mkfifo", [path.join(dir, "shared", "pipe")]);
    await symlink(path.join("shared", "pipe"), path.join(dir, "pipe-link.yaml"));
    await symlink("missing.yaml", path.join(dir, "dangling.yaml"));
    const result = await loadDefinitions(dir);
    expect(result.definitions.map((loaded) => loaded.file.replace(root, "<root>"))).toEqual([
      "<root>/incidents/api-link.yaml",
    ]);
    expect(shown(root, result.problems)).toMatchInlineSnapshot(`
      "<root>/incidents/dangling.yaml:1:1 unreadable-file: the file could not be read: it is a symbolic link that does not resolve (ENOENT: no such file or directory, realpath '<root>/incidents/dangling.yaml')
      <root>/incidents/pipe-link.yaml:1:1 not-a-regular-file: the file is a named pipe (FIFO), not a regular file; only regular files are read: replace it with one or remove it"
    `);
  });

  it("reads a folder a link inside the directory leads to, as a folder of its own (issue 36)", async () => {
    const { root, dir } = await tempDirs();
    await mkdir(path.join(dir, "team-a"));
    await mkdir(path.join(dir, ".store", "nested"), { recursive: true });
    await writeFile(path.join(dir, "team-a", "a.yaml"), definitionYaml({ id: "inc-a" }));
    await writeFile(path.join(dir, ".store", "b.yaml"), definitionYaml({ id: "inc-b" }));
    await writeFile(path.join(dir, ".store", "nested", "c.yaml"), definitionYaml({ id: "inc-c" }));
    await symlink(".store", path.join(dir, "team-b"));
    const result = await loadDefinitions(dir);
    expect(result.problems).toEqual([]);
    expect(result.files.map((file) => file.replace(root, "<root>"))).toEqual([
      "<root>/incidents/team-a/a.yaml",
      "<root>/incidents/team-b/b.yaml",
      "<root>/incidents/team-b/nested/c.yaml",
    ]);
    expect(result.definitions.map((loaded) => loaded.definition.id)).toEqual([
      "inc-a",
      "inc-b",
      "inc-c",
    ]);
  });

  it("refuses at its path a folder link out of the directory, a loop, and a second way into a folder", async () => {
    const { root, dir } = await tempDirs();
    await mkdir(path.join(dir, "team-a"));
    await mkdir(path.join(root, "elsewhere"));
    await writeFile(path.join(dir, "team-a", "a.yaml"), definitionYaml({ id: "inc-a" }));
    await writeFile(path.join(root, "elsewhere", "x.yaml"), definitionYaml({ id: "inc-x" }));
    await symlink(path.join(root, "elsewhere"), path.join(dir, "team-x"));
    await symlink("..", path.join(dir, "team-a", "up"));
    await symlink("team-a", path.join(dir, "again"));
    const result = await loadDefinitions(dir);
    expect(result.definitions.map((loaded) => loaded.definition.id)).toEqual(["inc-a"]);
    expect(shown(root, result.problems)).toMatchInlineSnapshot(`
      "<root>/incidents/again folder-read-twice: the folder is a symbolic link to <root>/incidents/team-a, which is read already as <root>/incidents/team-a; a folder is read once: remove the link
      <root>/incidents/team-a/up folder-read-twice: the folder is a symbolic link to <root>/incidents, a folder that contains it, so it would be read without end; remove the link
      <root>/incidents/team-x link-outside-directory: the folder is a symbolic link to <root>/elsewhere, outside the definitions directory; only folders inside it are read: move the folder in or remove the link"
    `);
  });

  it("refuses a file that is not UTF-8 at the line and column of its first bad byte (issue 36)", async () => {
    const { root, dir } = await tempDirs();
    await writeFile(path.join(dir, "api.yaml"), definitionYaml());
    await writeFile(
      path.join(dir, "latin1.yaml"),
      Buffer.from("id: inc-cafe\nname: Caf\xe9 is down\n", "latin1"),
    );
    const result = await loadDefinitions(dir);
    expect(result.definitions).toHaveLength(1);
    expect(shown(root, result.problems)).toMatchInlineSnapshot(
      `"<root>/incidents/latin1.yaml:2:10 invalid-utf8: the file is not UTF-8 text: the byte 0xE9 here is not part of any character (a file saved as Latin-1 or Windows-1252?); save it as UTF-8"`,
    );
  });

  it("refuses a 3 MiB file by its size, without reading it", async () => {
    const { root, dir } = await tempDirs();
    await writeFile(path.join(dir, "big.yaml"), Buffer.alloc(3 * 1024 * 1024, "#"));
    await writeFile(path.join(dir, "api.yaml"), definitionYaml());
    const result = await loadDefinitions(dir);
    expect(result.definitions).toHaveLength(1);
    expect(shown(root, result.problems)).toMatchInlineSnapshot(
      `"<root>/incidents/big.yaml:1:1 file-too-large: the file is 3,145,728 bytes; the limit is 524,288 bytes (512 KiB), so it is not read: split it into several files"`,
    );
  });
});
