import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EngineLocation, resolveEngine } from "../../src/engine";

const script = join(__dirname, "..", "..", "scripts", "engine.mjs");
const emptyDirs: string[] = [];

function runScript(env: Record<string, string>, args: string[] = []) {
  const result = spawnSync(process.execPath, [script, ...args], {
    encoding: "utf8",
    env: { HOME: process.env.HOME ?? tmpdir(), ...env },
    timeout: 120_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function emptyDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "incident-sync-engine-script-"));
  emptyDirs.push(dir);
  return dir;
}

describe("npm run engine", () => {
  let engine: EngineLocation;

  beforeAll(async () => {
    engine = await resolveEngine();
  }, 1_800_000);

  afterAll(() => {
    for (const dir of emptyDirs) rmSync(dir, { recursive: true, force: true });
  });

  it("fails with one sentence saying what to install when neither Pulumi nor Go is available", () => {
    const result = runScript({
      PATH: dirname(process.execPath),
      XDG_CACHE_HOME: emptyDir(),
      INCIDENT_SYNC_GO: join(emptyDir(), "go"),
    });
    expect(result.code).toBe(1);
    expect(result.stderr.replaceAll(engine.sdkVersion, "<version>")).toMatchInlineSnapshot(`
      "engine: Neither the Pulumi CLI nor Go is available: install Pulumi v<version> (https://www.pulumi.com/docs/install/) or Go 1.25+ (https://go.dev/dl/) and run \`npm run engine\` again.
      "
    `);
  });

  it("refuses an INCIDENT_SYNC_PULUMI_BIN that holds no pulumi binary", () => {
    const dir = emptyDir();
    const result = runScript({ PATH: dirname(process.execPath), INCIDENT_SYNC_PULUMI_BIN: dir });
    expect(result.code).toBe(1);
    expect(result.stderr.replace(dir, "<dir>")).toMatchInlineSnapshot(`
      "engine: INCIDENT_SYNC_PULUMI_BIN=<dir> holds no working \`pulumi\` binary: point it at the directory that contains one, or unset it.
      "
    `);
  });

  it("uses the CLI in INCIDENT_SYNC_PULUMI_BIN instead of building one", () => {
    const result = runScript(
      { PATH: dirname(process.execPath), INCIDENT_SYNC_PULUMI_BIN: engine.binDir },
      ["--json"],
    );
    expect(result.code).toBe(0);
    const reported = JSON.parse(result.stdout) as EngineLocation;
    expect(reported.source).toBe("INCIDENT_SYNC_PULUMI_BIN");
    expect(reported.version).toBe(engine.version);
    expect(reported.pulumi).toBe(engine.pulumi);
  });

  it("reports an engine whose version matches @pulumi/pulumi, with the dynamic provider plugin reachable", () => {
    expect(engine.version).toBe(engine.sdkVersion);
    const pluginBeside = join(engine.binDir, "pulumi-resource-pulumi-nodejs");
    const pluginInPackage = join(engine.pluginDir, "pulumi-resource-pulumi-nodejs");
    expect(existsSync(pluginBeside) || existsSync(pluginInPackage)).toBe(true);
    const version = spawnSync(engine.pulumi, ["version"], { encoding: "utf8" });
    expect(version.stdout.trim()).toBe(`v${engine.version}`);
  });
});
