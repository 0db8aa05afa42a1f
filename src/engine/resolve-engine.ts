import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { packageRoot } from "../package-root";
import { withoutApiKey } from "../settings/catalog";
import { EngineLocation } from "./engine-location";
import { EngineError } from "./errors";
import { findInstalledEngine } from "./installed-engine";

export interface ResolveEngineOptions {
  /** The incident-sync package root (a checkout, or the installed package); found from this file when omitted. */
  repoRoot?: string;
  /**
   * Show the build's progress on stderr. Defaults to whether stderr is a terminal.
   * @default process.stderr.isTTY
   */
  showProgress?: boolean;
}

/**
 * The engine: in a checkout `scripts/engine.mjs` finds or builds it; an installed package uses
 * the project's own Pulumi (`findInstalledEngine`).
 */
export async function resolveEngine(options: ResolveEngineOptions = {}): Promise<EngineLocation> {
  const repoRoot = options.repoRoot ?? packageRoot();
  const script = join(repoRoot, "scripts", "engine.mjs");
  if (!existsSync(script)) return findInstalledEngine();
  const showProgress = options.showProgress ?? process.stderr.isTTY === true;
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
    const child = spawn(process.execPath, [script, "--json", ...extraArgs], {
      stdio: ["ignore", "pipe", "pipe"],
      env: withoutApiKey(),
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
