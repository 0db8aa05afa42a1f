import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FileInTheWayError, writeNewFiles } from "../../src/cli/write-new-files";

const project = () => mkdtempSync(path.join(tmpdir(), "incident-sync-write-"));

describe("writing new files into the project", () => {
  it("creates every file and its folders when nothing is in the way", () => {
    const root = project();
    writeNewFiles(root, [
      { path: "incidents/services.yaml", content: "svc-a: A\n" },
      { path: "incidents/a.yaml", content: "id: a\n" },
    ]);
    expect(readFileSync(path.join(root, "incidents", "a.yaml"), "utf8")).toBe("id: a\n");
  });

  it("writes none when one is in the way, and names every problem", () => {
    const root = project();
    mkdirSync(path.join(root, "incidents"));
    writeFileSync(path.join(root, "incidents", "b.yaml"), "kept\n");
    writeFileSync(path.join(root, "notes"), "a file, not a folder\n");
    symlinkSync(tmpdir(), path.join(root, "linked"));
    let error: unknown;
    try {
      writeNewFiles(root, [
        { path: "incidents/a.yaml", content: "new\n" },
        { path: "incidents/b.yaml", content: "new\n" },
        { path: "notes/c.yaml", content: "new\n" },
        { path: "linked/d.yaml", content: "new\n" },
        { path: "../e.yaml", content: "new\n" },
      ]);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FileInTheWayError);
    expect((error as FileInTheWayError).problems).toEqual([
      "incidents/b.yaml exists",
      "notes is not a folder",
      "linked is a link",
      `../e.yaml is not inside the project ${root}`,
    ]);
    expect(readFileSync(path.join(root, "incidents", "b.yaml"), "utf8")).toBe("kept\n");
    expect(() => readFileSync(path.join(root, "incidents", "a.yaml"))).toThrow(/ENOENT/);
  });
});
