import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { delimiter, dirname, join, resolve } from "node:path";
import { minimumPulumi } from "../package-root";
import { packageDir } from "../peer-packages";
import type { EngineLocation } from "./engine-location";
import { EngineError } from "./errors";

const LANGUAGE_HOST = "pulumi-language-nodejs";
const INSTALL_URL = "https://www.pulumi.com/docs/install/";

/**
 * An installed package's engine: the project's own Pulumi, from INCIDENT_SYNC_PULUMI_BIN, else
 * PATH, with its language host beside it or on PATH; never built. Else an `EngineError`.
 */
export function findInstalledEngine(env: NodeJS.ProcessEnv = process.env): EngineLocation {
  const sdk = pulumiSdk();
  // The oldest CLI that works is the floor; the project's @pulumi/pulumi is only the best match.
  const install = `install Pulumi ${minimumPulumi().join(".")} or later, best v${sdk.version} like your @pulumi/pulumi (${INSTALL_URL}, which puts pulumi and ${LANGUAGE_HOST} in ~/.pulumi/bin), and put that directory on PATH or set INCIDENT_SYNC_PULUMI_BIN to it`;
  const { source, pulumi } = findCli(env, install);
  const version = reportedVersion(pulumi, env);
  if (version === undefined) {
    throw new EngineError(
      source === "PATH"
        ? `The pulumi on PATH (${pulumi}) does not run: ${install}.`
        : `INCIDENT_SYNC_PULUMI_BIN=${env.INCIDENT_SYNC_PULUMI_BIN} holds no working \`pulumi\` binary: point it at the directory that contains one, or unset it.`,
    );
  }
  if (!atLeastMinimum(version)) {
    throw new EngineError(
      `${pulumi} is Pulumi v${version}; incident-sync needs ${minimumPulumi().join(".")} or later: ${install}.`,
    );
  }
  const binDir = dirname(pulumi);
  const languageHost = [join(binDir, LANGUAGE_HOST), onPath(LANGUAGE_HOST, env)].find(
    (path): path is string => path !== undefined && existsSync(path),
  );
  if (languageHost === undefined) {
    throw new EngineError(
      `The Pulumi CLI at ${pulumi} has no Node.js language host (${LANGUAGE_HOST}) beside it or on PATH, and it is needed to run the program: ${install}.`,
    );
  }
  return {
    source,
    version,
    pulumi,
    binDir,
    languageHost,
    sdkVersion: sdk.version,
    pluginDir: sdk.dir,
  };
}

function findCli(
  env: NodeJS.ProcessEnv,
  install: string,
): { source: "INCIDENT_SYNC_PULUMI_BIN" | "PATH"; pulumi: string } {
  const chosen = env.INCIDENT_SYNC_PULUMI_BIN;
  if (chosen)
    return { source: "INCIDENT_SYNC_PULUMI_BIN", pulumi: join(resolve(chosen), "pulumi") };
  const pulumi = onPath("pulumi", env);
  if (pulumi === undefined) {
    throw new EngineError(
      `No Pulumi CLI: \`pulumi\` is not on PATH. To run the engine, ${install}.`,
    );
  }
  return { source: "PATH", pulumi };
}

/** `@pulumi/pulumi` as this package resolves it: the project's own, a peer dependency. */
function pulumiSdk(): { dir: string; version: string } {
  const dir = packageDir("@pulumi/pulumi");
  if (dir === undefined) {
    throw new EngineError(
      "@pulumi/pulumi is not installed: run `npm install @pulumi/pulumi` in your project (incident-sync uses the project's own, a peer dependency).",
    );
  }
  const { version } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    version: string;
  };
  return { dir, version };
}

function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** The version a `pulumi` binary reports, without the `v`; `undefined` when it does not run. */
function reportedVersion(pulumi: string, env: NodeJS.ProcessEnv): string | undefined {
  if (!existsSync(pulumi)) return undefined;
  // `pulumi version` needs no API key: none in its environment.
  const { MONITORING_API_KEY: _key, ...rest } = env;
  const result = spawnSync(pulumi, ["version"], {
    encoding: "utf8",
    env: { ...rest, PULUMI_SKIP_UPDATE_CHECK: "1" },
    timeout: 60_000,
  });
  if (result.status !== 0) return undefined;
  return result.stdout.trim().replace(/^v/, "");
}

function atLeastMinimum(version: string): boolean {
  const parts = version.split(/[.-]/).slice(0, 3).map(Number);
  for (const [i, minimum] of minimumPulumi().entries()) {
    const part = parts[i] ?? 0;
    if (part !== minimum) return part > minimum;
  }
  return true;
}
