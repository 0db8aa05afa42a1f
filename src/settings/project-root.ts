import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { SETTINGS } from "./catalog";

/**
 * The project directory, where Pulumi.yaml is, which `definitionsDir` is relative to: the
 * engine's root directory when it says, else the nearest directory up from the working
 * directory (the language host's is that of `main`, dist/) that holds a Pulumi.yaml.
 */
export function projectRoot(): string {
  const root = process.env.PULUMI_ROOT_DIRECTORY;
  if (root) return root;
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "Pulumi.yaml")) || existsSync(join(dir, "Pulumi.yml"))) return dir;
    if (dirname(dir) === dir) return process.cwd();
  }
}

/** The definitions directory a stack's settings name, as an absolute path. */
export function definitionsDirectory(
  settings: { definitionsDir?: string | undefined } | undefined,
  projectDir: string = projectRoot(),
): string {
  return resolve(projectDir, settings?.definitionsDir ?? SETTINGS.definitionsDir.default);
}
