import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { projectFiles } from "../../src/cli/init/project-files";
import { createProgram } from "../../src/cli/program";
import { loadDefinitionSources } from "../../src/definitions";
import { DOC_FILES, type DocBlock, docBlocks, docBlocksOf } from "../support/doc-blocks";
import { brokenLinks } from "../support/doc-links";

const ROOT = join(__dirname, "..", "..");

/**
 * What covers each kind of block, by the `<!-- test: kind -->` line above it, and the test
 * file that runs or checks it. This file owns the kinds it checks itself.
 */
const OWNERS: Readonly<Record<string, string>> = {
  "first-commands": "test/docs/doc-blocks.test.ts",
  cli: "test/docs/doc-blocks.test.ts",
  definition: "test/docs/doc-blocks.test.ts",
  services: "test/docs/doc-blocks.test.ts",
  scripts: "test/docs/doc-blocks.test.ts",
  run: "test/docs/doc-commands.test.ts",
  install: "test/package/installed-package.test.ts",
  team: "test/package/installed-package.test.ts",
  "plain-cli": "test/engine/plain-cli.test.ts",
  "pipeline-kit": "test/reports/pipeline-kit.test.ts",
};

/** Where a block is, for a failure message. */
const at = (block: DocBlock) => `${block.file}:${block.line}`;

/** The services every `definition` block may name by id: this repository's catalog and init's. */
function catalog(): string {
  const initCatalog = projectFiles({
    project: "docs",
    language: "js",
    definitionsDir: "incidents",
    stacks: ["prod"],
    schemaDir: "../schema",
  }).find((file) => file.path === "incidents/services.yaml");
  return `${readFileSync(join(ROOT, "incidents", "services.yaml"), "utf8")}\n${initCatalog?.text ?? ""}`;
}

/**
 * Checks a command line of a `cli` block against the real command line: the command exists,
 * each `--option` is one of its options, and each `--format` value (or each of `a|b`
 * alternatives, in a synopsis) is one it accepts. Placeholders (`<ref>`, `[dir]`) pass.
 */
function expectKnownToTheCli(line: string, where: string): void {
  const words = line.replace(/^npx /, "").split(/\s+/);
  expect(words[0], `${where}: ${line}`).toBe("incident-sync");
  let command: Command = createProgram();
  let index = 1;
  for (; index < words.length; index++) {
    const sub = command.commands.find((candidate) => candidate.name() === words[index]);
    if (!sub) break;
    command = sub;
  }
  expect(command.name(), `${where}: ${line} names no command`).not.toBe("incident-sync");
  for (let j = index; j < words.length; j++) {
    const flag = /^\[?(--[a-z-]+)/.exec(words[j] ?? "")?.[1];
    if (flag === undefined) continue;
    const option = command.options.find((candidate) => candidate.long === flag);
    expect(option, `${where}: ${line}: ${flag} is no option of ${command.name()}`).toBeDefined();
    const value = (words[j + 1] ?? "").replace(/[[\]]/g, "");
    if (flag === "--format" && !value.startsWith("<")) {
      for (const format of value.split("|")) {
        expect(option?.argChoices, `${where}: ${line}`).toContain(format);
      }
    }
  }
}

describe("the README and docs/", () => {
  it("run or check every shell and YAML block, each named by the test line above it", () => {
    const blocks = docBlocks().filter((block) => ["sh", "yaml"].includes(block.lang));
    expect(blocks.length).toBeGreaterThan(30);
    for (const block of blocks) {
      expect(
        block.test,
        `${at(block)}: a ${block.lang} block needs <!-- test: kind -->`,
      ).toBeDefined();
      const kind = block.test?.split("/")[0] ?? "";
      const owner = OWNERS[kind];
      expect(owner, `${at(block)}: no test runs blocks of kind ${kind}`).toBeDefined();
      // The owner asks for this block (or its whole kind) by name.
      const source = readFileSync(join(ROOT, owner ?? ""), "utf8");
      const name = block.test?.slice(kind.length + 1) ?? "";
      const asked =
        source.includes(`docBlocksOf("${kind}")`) ||
        source.includes(`"${block.test}"`) ||
        (name !== "" && source.toLowerCase().includes(`block("${name}")`));
      expect(asked, `${at(block)}: ${owner} does not read <!-- test: ${block.test} -->`).toBe(true);
    }
  });

  it("keep the README's first block the two commands of a bare machine: npm start, and the tests", () => {
    const [first] = docBlocks().filter((block) => block.file === "README.md");
    expect(first?.lang).toBe("sh");
    expect(first?.test).toBe("first-commands");
    expect(docBlocksOf("first-commands")).toHaveLength(1);
    expect(first?.commands).toEqual(["npm start", "npm ci && npm test"]);
    // ../shared/bin/fresh-machine-check and .ci/run run them on a fresh clone, and
    // test/engine/main-job.test.ts runs npm start on a warm one; here, that each names what
    // this repository runs.
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(scripts.start).toBe("node scripts/start.mjs");
    expect(scripts.test).toMatch(/vitest run$/);
    expect(readFileSync(join(ROOT, ".ci", "run"), "utf8")).toContain("npm test");
  });

  it("keep the README at most 250 lines", () => {
    expect(readFileSync(join(ROOT, "README.md"), "utf8").split("\n").length).toBeLessThanOrEqual(
      251,
    );
  });

  it("keep BENCHMARKS.md to the current tables, at most 400 lines, its history in docs/benchmarks-history.md", () => {
    const text = readFileSync(join(ROOT, "BENCHMARKS.md"), "utf8");
    expect(text.split("\n").length).toBeLessThanOrEqual(401);
    expect(text).toContain("[docs/benchmarks-history.md](docs/benchmarks-history.md)");
  });

  it("show command lines the real CLI takes: its commands, options and formats", () => {
    const blocks = docBlocksOf("cli");
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    for (const block of blocks) {
      expect(block.commands.length, at(block)).toBeGreaterThan(0);
      for (const line of block.commands) expectKnownToTheCli(line, at(block));
    }
  });

  it("show definitions that validate, each block as a file beside the services catalog", () => {
    const blocks = docBlocksOf("definition");
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    for (const block of blocks) {
      const result = loadDefinitionSources([
        { path: "incidents/services.yaml", text: catalog(), catalog: true },
        { path: "incidents/example.yaml", text: block.text },
      ]);
      expect(result.problems, at(block)).toEqual([]);
      expect(result.definitions.length + result.maintenance.length, at(block)).toBeGreaterThan(0);
    }
    // The README's example is the one init writes.
    const readme = blocks.find((block) => block.file === "README.md");
    const written = projectFiles({
      project: "docs",
      language: "js",
      definitionsDir: "incidents",
      stacks: ["prod"],
      schemaDir: "../schema",
    }).find((file) => file.path === "incidents/example.yaml");
    expect(parse(readme?.text ?? "")).toEqual(parse(written?.text ?? ""));
  });

  it("show a services catalog that loads", () => {
    for (const block of docBlocksOf("services")) {
      const result = loadDefinitionSources([
        { path: "incidents/services.yaml", text: block.text, catalog: true },
        {
          path: "incidents/a.yaml",
          text: "id: inc-a\nname: A\nseverity: MINOR\nstatus: RESOLVED\nservices: [svc-api]\n",
        },
      ]);
      expect(result.problems, at(block)).toEqual([]);
    }
  });

  it("name npm scripts that exist", () => {
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    const blocks = docBlocksOf("scripts");
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      for (const line of block.commands) {
        const script = /^npm run ([\w:-]+)/.exec(line)?.[1];
        expect(script, `${at(block)}: ${line}`).toBeDefined();
        expect(Object.keys(scripts), `${at(block)}: ${line}`).toContain(script);
      }
    }
  });

  it("open the README for both readers, and go live with the backend init --backend names", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    // Before the checkout's two commands: the way in for a team that installs the package too.
    const first = readme.slice(0, readme.indexOf("```"));
    expect(first).toMatch(/\[Install\]\(#install\)/);
    expect(first).toMatch(/checkout of this repository/);
    const live = readme.slice(readme.indexOf("## Going live"), readme.indexOf("## Where next"));
    expect(live).toContain("`init --backend`");
    for (const backend of ["Pulumi Cloud", "s3://", "file://"]) expect(live).toContain(backend);
    expect(live).toMatch(/protect `main`/);
  });

  it("link to pages and headings that exist", () => {
    for (const file of DOC_FILES) expect(brokenLinks(ROOT, file)).toEqual([]);
  });
});
