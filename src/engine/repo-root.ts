import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { EngineError } from "./errors";

/**
 * The directory holding incident-sync's package.json. Found by walking up, so the same code
 * works from `src/engine` (tests) and `dist/src/engine` (compiled).
 */
export function findRepoRoot(start: string = __dirname): string {
  let dir = start;
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && readPackageName(manifest) === "incident-sync") return dir;
    const parent = dirname(dir);
    if (parent === dir) {
      throw new EngineError(
        `No incident-sync package.json above ${start}: run incident-sync from its repository.`,
      );
    }
    dir = parent;
  }
}

function readPackageName(manifest: string): string | undefined {
  const parsed: unknown = JSON.parse(readFileSync(manifest, "utf8"));
  if (typeof parsed === "object" && parsed !== null && "name" in parsed) {
    return typeof parsed.name === "string" ? parsed.name : undefined;
  }
  return undefined;
}
