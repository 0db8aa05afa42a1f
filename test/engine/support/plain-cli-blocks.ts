import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "./checkout";

/**
 * The command lines of the README's sh block marked `<!-- plain-cli: name -->`, comments and
 * blank lines dropped: what a user types, word for word.
 */
export function readmeBlock(name: string): string[] {
  const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
  const marker = `<!-- plain-cli: ${name} -->`;
  const at = readme.indexOf(marker);
  if (at === -1) throw new Error(`README.md has no block marked ${marker}`);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at));
  if (!block?.[1]) throw new Error(`README.md has no sh block after ${marker}`);
  return block[1]
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}
