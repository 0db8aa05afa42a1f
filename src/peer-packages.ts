import { existsSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "./user-error";

/*
 * Packages incident-sync uses but does not install (`@pulumi/pulumi` and the optional ones):
 * nothing loads an optional one until a command that needs it asks for it here.
 */

/** What each optional part of incident-sync needs, as `npm install` names it. */
export const OPTIONAL_PACKAGES = {
  /** The local emulator: `incident-sync emulator`, `up --emulator`, `npm start`. */
  emulator: ["hono", "@hono/node-server"],
  /** CSV output of the reports. */
  csv: ["csv-stringify"],
  /** HTML reports, which inline uPlot. */
  html: ["uplot"],
} as const satisfies Record<string, readonly string[]>;

/** An optional package a command needs is not installed; the message names the install. */
export class MissingPackageError extends UserError {
  override name = "MissingPackageError";
  /** The packages to install. */
  readonly packages: readonly string[];

  constructor(what: string, packages: readonly string[]) {
    const names = packages.join(" and ");
    super(
      `${what} needs ${names}, ${packages.length === 1 ? "an optional package" : "optional packages"} of incident-sync that ${packages.length === 1 ? "is" : "are"} not installed: run \`npm install ${packages.join(" ")}\` in your project.`,
    );
    this.packages = packages;
  }
}

/**
 * The directory of `name` as this package resolves it, from the folders `require` searches
 * (so an `exports` that hides package.json is no obstacle), or `undefined`.
 */
export function packageDir(name: string): string | undefined {
  for (const dir of require.resolve.paths(name) ?? []) {
    if (existsSync(join(dir, name, "package.json"))) return join(dir, name);
  }
  return undefined;
}

/**
 * Throws `MissingPackageError` naming what to install unless every package of `packages`
 * is installed; call it before the `import()` of the code that needs them.
 * @example requirePackages("The emulator", OPTIONAL_PACKAGES.emulator)
 */
export function requirePackages(what: string, packages: readonly string[]): void {
  const missing = packages.filter((name) => packageDir(name) === undefined);
  if (missing.length > 0) throw new MissingPackageError(what, missing);
}
