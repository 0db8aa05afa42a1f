import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { docBlocks } from "../support/doc-blocks";

const ROOT = resolve(__dirname, "..", "..");

/**
 * The docs' TypeScript examples that import the package by name: each one whole, as a user
 * pastes it into a file of a project. A program's (`export =`) is a CommonJS module, the
 * others ES modules, so top-level `await` is allowed as in a script.
 */
function readmeExamples(): { name: string; code: string }[] {
  return docBlocks()
    .filter((block) => block.lang === "ts" && block.text.includes('from "incident-sync"'))
    .map(({ text: code }, index) => ({
      name: `example-${index + 1}.${code.includes("export =") ? "ts" : "mts"}`,
      code,
    }));
}

describe("the docs' examples of the package's API", () => {
  it("type-check against the package as it resolves by name (its exports and types)", () => {
    const examples = readmeExamples();
    expect(examples.map((example) => example.name)).toEqual(["example-1.mts", "example-2.ts"]);
    // Inside the package's own folder, so "incident-sync" resolves to this package through
    // its `exports` (a package's self-reference), to the built dist/ that ships.
    const dir = join(ROOT, ".incident-sync", "readme-examples");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const { name, code } of examples) writeFileSync(join(dir, name), code);
    const tsc = spawnSync(
      process.execPath,
      [
        join(ROOT, "node_modules", "typescript", "bin", "tsc"),
        "--noEmit",
        "--strict",
        "--module",
        "nodenext",
        "--moduleResolution",
        "nodenext",
        "--target",
        "es2024",
        "--types",
        "node",
        "--skipLibCheck",
        ...examples.map(({ name }) => join(dir, name)),
      ],
      { cwd: ROOT, encoding: "utf8" },
    );
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  }, 120_000);
});
