/**
 * The oldest Node every command runs on: `require()` of ES modules (22.12) and
 * `DatabaseSync#isTransaction` (22.16); a test keeps package.json's `engines` equal.
 */
export const MINIMUM_NODE = "22.16.0";

/** The Node.js the project is developed and tested on. */
const RECOMMENDED_NODE = "24 LTS";

/**
 * Why this Node.js cannot run the CLI and how to get one that can, or undefined when it
 * can. This module imports nothing, so it runs on any Node.js before anything that needs
 * a newer one is loaded.
 */
export function nodeVersionProblem(version: string): string | undefined {
  if (compareVersions(version, MINIMUM_NODE) >= 0) return undefined;
  return `incident-sync needs Node.js ${MINIMUM_NODE} or newer (${RECOMMENDED_NODE} recommended); this is Node.js ${version}.
Install Node.js ${RECOMMENDED_NODE}: with nvm, "nvm install 24" (the repository's .nvmrc says 24), or from https://nodejs.org/.
In a clone of the repository, "npm run" scripts already use the Node.js 24 of the "node" devDependency.
`;
}

/** Compares dotted versions numerically: `22.9.0` < `22.13.0`. */
function compareVersions(a: string, b: string): number {
  const left = a.split(".").map((part) => Number.parseInt(part, 10) || 0);
  const right = b.split(".").map((part) => Number.parseInt(part, 10) || 0);
  for (let i = 0; i < Math.max(left.length, right.length); i += 1) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}
