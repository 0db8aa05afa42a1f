import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";

/** The package's name in its package.json. */
const NAME = "incident-sync";

interface Manifest {
  name?: unknown;
  version?: unknown;
  engines?: Record<string, unknown>;
  repository?: { url?: unknown } | string;
}

let found: { root: string; manifest: Manifest } | undefined;

/**
 * The incident-sync package root: the nearest folder above this file whose package.json names
 * incident-sync. Works from `src/` (tests), from compiled `dist/src/`, and from
 * node_modules/incident-sync when it is installed as a dependency.
 */
export function packageRoot(): string {
  return locate().root;
}

/** The version in the package's package.json. */
export function packageVersion(): string {
  const { version } = locate().manifest;
  return typeof version === "string" ? version : "0.0.0";
}

/**
 * The oldest Pulumi CLI incident-sync runs on, from package.json's `engines.pulumi`
 * (`>=3.181.0`): the one place `scripts/engine.mjs` and an installed package both read it.
 */
export function minimumPulumi(): readonly [number, number, number] {
  const range = locate().manifest.engines?.pulumi;
  const [major = 0, minor = 0, patch = 0] = String(range ?? "")
    .replace(/^>=\s*/, "")
    .split(".")
    .map(Number);
  return [major, minor, patch];
}

/**
 * The repository's web address, from package.json's `repository` (`git+https://….git`), where
 * the docs are for someone who has no copy of them.
 */
export function repositoryUrl(): string {
  const { repository } = locate().manifest;
  const url = typeof repository === "string" ? repository : repository?.url;
  return String(url ?? "")
    .replace(/^git\+/, "")
    .replace(/\.git$/, "");
}

/**
 * Where a page of the docs is for someone working in `dir`: the package's own copy, by its path
 * from there when it is inside (an installed package), else on the repository's site.
 */
export function docsPage(page: string, dir: string): string {
  const file = join(locate().root, "docs", page);
  const shown = relative(dir, file);
  if (existsSync(file) && shown !== "" && !shown.startsWith("..") && !isAbsolute(shown)) {
    return shown.split(sep).join("/");
  }
  return `${repositoryUrl()}/blob/main/docs/${page}`;
}

function locate(): { root: string; manifest: Manifest } {
  if (found) return found;
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, "utf8")) as Manifest;
      if (manifest.name === NAME) {
        found = { root: dir, manifest };
        return found;
      }
    }
    if (dirname(dir) === dir) {
      throw new Error(`No ${NAME} package.json above ${__dirname}: the package is incomplete.`);
    }
  }
}
