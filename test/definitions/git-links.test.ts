import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadDefinitions, readDefinitionsAtRef } from "../../src/definitions";
import { definitionYaml } from "./helpers";

const created: string[] = [];
afterEach(async () => {
  await Promise.all(created.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A git repository with `incidents/` committed as `files` and `links` (path → target) make it. */
async function committed(
  files: Record<string, string>,
  links: Record<string, string>,
): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), "incident-sync-git-links-"));
  created.push(root);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  for (const [link, target] of Object.entries(links)) {
    await mkdir(path.dirname(path.join(root, link)), { recursive: true });
    await symlink(target, path.join(root, link));
  }
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.test", ...args], {
      cwd: root,
    });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "base");
  return root;
}

/**
 * Issue 36: links are followed at a git ref as on disk, so `plan` compares the same
 * definitions on both sides; before, a linked folder was read in the working tree (now) and
 * skipped at the base, and its incidents showed as added by every pull request.
 */
describe("definitions at a git ref, through symbolic links", () => {
  it("reads a linked folder and a linked file as the working tree does", async () => {
    const root = await committed(
      {
        "incidents/team-a/a.yaml": definitionYaml({ id: "inc-a" }),
        "incidents/.store/b.yaml": definitionYaml({ id: "inc-b" }),
        "incidents/.store/nested/c.yaml": definitionYaml({ id: "inc-c" }),
        "incidents/shared/d.txt": definitionYaml({ id: "inc-d" }),
      },
      { "incidents/team-b": ".store", "incidents/d.yaml": "shared/d.txt" },
    );
    const dir = path.join(root, "incidents");
    const atRef = await readDefinitionsAtRef(dir, "main");
    const onDisk = await loadDefinitions(dir);
    expect(atRef.problems).toEqual([]);
    expect(atRef.files.map((file) => path.relative(dir, file.path))).toEqual(
      onDisk.files.map((file) => path.relative(dir, file)).sort(),
    );
    expect(atRef.files.map((file) => path.relative(dir, file.path)).sort()).toEqual([
      "d.yaml",
      "team-a/a.yaml",
      "team-b/b.yaml",
      "team-b/nested/c.yaml",
    ]);
  });

  it("reports a loop, a second way into a folder and a file link out of the directory at their paths", async () => {
    const root = await committed(
      {
        "incidents/team-a/a.yaml": definitionYaml({ id: "inc-a" }),
        "elsewhere/x.yaml": definitionYaml({ id: "inc-x" }),
      },
      {
        "incidents/team-a/up": "..",
        "incidents/again": "team-a",
        "incidents/x.yaml": "../elsewhere/x.yaml",
      },
    );
    const dir = path.join(root, "incidents");
    const { files, problems } = await readDefinitionsAtRef(dir, "main");
    expect(files.map((file) => path.relative(dir, file.path))).toEqual(["team-a/a.yaml"]);
    expect(
      problems.map(
        (problem) =>
          `${path.relative(root, problem.file)} ${problem.code}: ${problem.message.replaceAll(root, "<root>")}`,
      ),
    ).toMatchInlineSnapshot(`
      [
        "incidents/again folder-read-twice: the folder is a symbolic link to team-a, which is read already as <root>/incidents/team-a; a folder is read once: remove the link",
        "incidents/team-a/up folder-read-twice: the folder is a symbolic link to ., a folder that contains it, so it would be read without end; remove the link",
        "incidents/x.yaml link-outside-directory: the file is a symbolic link to ../elsewhere/x.yaml, outside the definitions directory; only files inside it are read: copy the file in or remove the link",
      ]
    `);
  });
});
