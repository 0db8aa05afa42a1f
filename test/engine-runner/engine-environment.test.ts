import { describe, expect, it } from "vitest";
import { type EngineLocation, engineEnvironment } from "../../src/engine";
import { runCommandsContext } from "../../src/settings";

const engine: EngineLocation = {
  source: "PATH",
  version: "3.259.0",
  pulumi: "/opt/pulumi/bin/pulumi",
  binDir: "/opt/pulumi/bin",
  languageHost: "/opt/pulumi/bin/pulumi-language-nodejs",
  sdkVersion: "3.259.0",
  pluginDir: "/opt/pulumi/sdk",
};

const environment = (base: NodeJS.ProcessEnv) =>
  engineEnvironment({
    engine,
    projectDir: "/nowhere",
    backendUrl: "file:///state",
    skipCheckpoints: true,
    base: { PATH: "/usr/bin", ...base },
  });

describe("the environment of every pulumi command", () => {
  it("never passes on the API key or an inherited passphrase", () => {
    const env = environment({ MONITORING_API_KEY: "key", PULUMI_CONFIG_PASSPHRASE: "inherited" });
    expect(env.MONITORING_API_KEY).toBeUndefined();
    expect(env.PULUMI_CONFIG_PASSPHRASE).toBeUndefined();
  });

  it("marks every run as incident-sync's, so its messages name incident-sync's commands", () => {
    expect(runCommandsContext(environment({}))).toBe("cli");
    expect(runCommandsContext({ PATH: "/usr/bin" })).toBe("pulumi");
  });

  it("gives the engine's Node processes a compile cache: the one asked for, else the user's cache folder", () => {
    expect(environment({ NODE_COMPILE_CACHE: "/cache/here" }).NODE_COMPILE_CACHE).toBe(
      "/cache/here",
    );
    expect(environment({ XDG_CACHE_HOME: "/home/me/.cache" }).NODE_COMPILE_CACHE).toBe(
      "/home/me/.cache/incident-sync/compile-cache",
    );
    expect(environment({ NODE_DISABLE_COMPILE_CACHE: "1" }).NODE_COMPILE_CACHE).toBeUndefined();
  });
});
