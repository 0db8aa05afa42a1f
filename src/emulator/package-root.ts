import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * The incident-sync package root: the nearest folder above this file whose package.json
 * is ours. Works from `src/` (run by ts tooling) and from compiled `dist/src/`.
 */
export function packageRoot(): string {
  let dir = __dirname;
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      const parsed: unknown = JSON.parse(readFileSync(manifest, "utf8"));
      if (typeof parsed === "object" && parsed !== null && "name" in parsed) {
        if (parsed.name === "incident-sync") return dir;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) {
      throw new Error(`cannot find the incident-sync package root above ${__dirname}`);
    }
    dir = parent;
  }
}

/** The bundled demo seed, chosen with `--seed demo` or `seed: "demo"`. */
export function demoSeedPath(): string {
  return join(packageRoot(), "examples", "seed", "demo.yaml");
}
