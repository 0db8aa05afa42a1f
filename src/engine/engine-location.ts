import { z } from "zod";

/**
 * Where the Pulumi CLI is: as `scripts/engine.mjs --json` reports it in a checkout, or as an
 * installed package finds the project's own Pulumi (`installed-engine.ts`).
 */
export const EngineLocation = z.object({
  /** How it was found: INCIDENT_SYNC_PULUMI_BIN, PATH, cache or built. */
  source: z.enum(["INCIDENT_SYNC_PULUMI_BIN", "PATH", "cache", "built"]),
  /** Version the CLI reports, without the leading `v`. */
  version: z.string(),
  /** Absolute path of the `pulumi` binary. */
  pulumi: z.string(),
  /** Directory of the `pulumi` binary. */
  binDir: z.string(),
  /** The Node.js language host (`pulumi-language-nodejs`) that runs the program. */
  languageHost: z.string(),
  /** Version of the installed `@pulumi/pulumi` package. */
  sdkVersion: z.string(),
  /** Directory of `@pulumi/pulumi`, which ships the dynamic provider plugin script. */
  pluginDir: z.string(),
});
export type EngineLocation = z.infer<typeof EngineLocation>;
