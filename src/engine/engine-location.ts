import { spawn } from "node:child_process";
import { join } from "node:path";
import { z } from "zod";
import { packageRoot } from "../package-root";
import { EngineError } from "./errors";

/** Where the Pulumi CLI is, as reported by `scripts/engine.mjs --json`. */
export const EngineLocation = z.object({
  /** How it was found: INCIDENT_SYNC_PULUMI_BIN, PATH, cache or built. */
  source: z.enum(["INCIDENT_SYNC_PULUMI_BIN", "PATH", "cache", "built"]),
  /** Version the CLI reports, without the leading `v`. */
  version: z.string(),
  /** Absolute path of the `pulumi` binary. */
  pulumi: z.string(),
  /** Directory of the `pulumi` binary. */
  binDir: z.string(),
  /** Installation root: `<root>/bin/pulumi` runs this CLI (what the Automation API expects). */
  root: z.string(),
  /** The Node.js language host (`pulumi-language-nodejs`) that runs the program. */
  languageHost: z.string(),
  /** Version of the installed `@pulumi/pulumi` package. */
  sdkVersion: z.string(),
  /** Directory of `@pulumi/pulumi`, which ships the dynamic provider plugin script. */
  pluginDir: z.string(),
});
export type EngineLocation = z.infer<typeof EngineLocation>;

export interface ResolveEngineOptions {
  /** Repository root; found from this file when omitted. */
  repoRoot?: string;
  /**
   * Show the build's progress on stderr. Defaults to whether stderr is a terminal.
   * @default process.stderr.isTTY
   */
  showProgress?: boolean;
}

/**
 * Makes the engine available (finding or building it) and says where it is. The first build
 * takes minutes; later calls take about a second.
 */
export async function resolveEngine(options: ResolveEngineOptions = {}): Promise<EngineLocation> {
  const repoRoot = options.repoRoot ?? packageRoot();
  const showProgress = options.showProgress ?? process.stderr.isTTY === true;
  const script = join(repoRoot, "scripts", "engine.mjs");
  const { code, stdout, stderr } = await runNode(script, showProgress ? [] : ["--quiet"]);
  if (code !== 0) {
    throw new EngineError(stderr.trim().replace(/^engine: /, "") || `${script} exited ${code}.`);
  }
  const lastLine = stdout.trim().split("\n").at(-1) ?? "";
  const parsed = EngineLocation.safeParse(JSON.parse(lastLine));
  if (!parsed.success) {
    throw new EngineError(
      `${script} printed an unexpected result: ${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}

function runNode(
  script: string,
  extraArgs: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // The engine script runs `pulumi version`: no API key in its environment either.
    const { MONITORING_API_KEY: _key, ...env } = process.env;
    const child = spawn(process.execPath, [script, "--json", ...extraArgs], {
      stdio: ["ignore", "pipe", "pipe"],
      env,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (!extraArgs.includes("--quiet")) process.stderr.write(chunk);
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
