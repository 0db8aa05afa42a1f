import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * The version in this package's `package.json`, found by walking up from the compiled file,
 * so it is right from `src/` under vitest and from `dist/` alike.
 */
export const PACKAGE_VERSION: string = packageVersion();

function packageVersion(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, "utf8")) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === "incident-sync" && manifest.version) return manifest.version;
    }
    if (dirname(dir) === dir) return "0.0.0";
  }
}
