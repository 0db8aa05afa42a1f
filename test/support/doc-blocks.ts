import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..");

/** The pages a user reads: the README and every page of docs/. */
export const DOC_FILES: readonly string[] = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
];

/** A fenced code block of a page, with the test that covers it. */
export interface DocBlock {
  /** The page, relative to the repository. */
  readonly file: string;
  /** The line of its opening fence, 1-based. */
  readonly line: number;
  /** The fence's language: `sh`, `yaml`, `ts`, … */
  readonly lang: string;
  /**
   * What covers it, from the `<!-- test: name -->` line just above it: `cli`, `run`,
   * `definition`, `plain-cli/setup`, … (see test/docs/doc-blocks.test.ts for every kind).
   */
  readonly test: string | undefined;
  /** The block's text as written. */
  readonly text: string;
  /** Its command lines for a shell block: comments and blank lines dropped, as typed. */
  readonly commands: string[];
}

/** Every fenced block of every page. */
export function docBlocks(): DocBlock[] {
  return DOC_FILES.flatMap((file) => blocksOf(file, readFileSync(join(ROOT, file), "utf8")));
}

/** The blocks a kind of test covers: `docBlocksOf("cli")`. */
export function docBlocksOf(test: string): DocBlock[] {
  return docBlocks().filter((block) => block.test === test);
}

/** The one block marked `<!-- test: name -->`; throws unless there is exactly one. */
export function docBlock(test: string): DocBlock {
  const found = docBlocksOf(test);
  if (found.length !== 1) {
    throw new Error(`expected one block marked <!-- test: ${test} -->, found ${found.length}`);
  }
  return found[0] as DocBlock;
}

function blocksOf(file: string, text: string): DocBlock[] {
  const lines = text.split("\n");
  const blocks: DocBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^(\s*)```(\w*)\s*$/.exec(lines[index] ?? "");
    if (!open) continue;
    const indent = open[1] ?? "";
    const end = lines.findIndex((line, at) => at > index && line.trim() === "```");
    if (end === -1) throw new Error(`${file}:${index + 1}: a code block is never closed`);
    const body = lines
      .slice(index + 1, end)
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line));
    let above = index - 1;
    while (above >= 0 && lines[above]?.trim() === "") above--;
    const marker = /^\s*<!-- test: (\S+) -->\s*$/.exec(lines[above] ?? "");
    blocks.push({
      file,
      line: index + 1,
      lang: open[2] ?? "",
      test: marker?.[1],
      text: `${body.join("\n")}\n`,
      commands: body
        .map((line) => line.replace(/\s+#.*$/, "").trim())
        .filter((line) => line !== "" && !line.startsWith("#")),
    });
    index = end;
  }
  return blocks;
}
