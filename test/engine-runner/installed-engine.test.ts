import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findInstalledEngine } from "../../src/engine/installed-engine";

const root = mkdtempSync(join(tmpdir(), "incident-sync-installed-engine-"));
const sdkVersion = (require("@pulumi/pulumi/package.json") as { version: string }).version;

/** A Pulumi install of fakes: `pulumi` reports `version`, with the language host or without. */
function install(name: string, version: string, languageHost: boolean): string {
  const bin = join(root, name, "bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, "pulumi"), `#!/bin/sh\necho v${version}\n`);
  chmodSync(join(bin, "pulumi"), 0o755);
  if (languageHost) writeFileSync(join(bin, "pulumi-language-nodejs"), "", { mode: 0o755 });
  return bin;
}

const nodeDir = dirname(process.execPath);
const message = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as Error).message.replaceAll(root, "<root>").replaceAll(sdkVersion, "<sdk>");
  }
  throw new Error("expected an error");
};

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the engine of an installed package: the project's own Pulumi install", () => {
  it("takes pulumi and its language host from PATH, as a standard install has them", () => {
    const bin = install("standard", "3.270.0", true);
    expect(findInstalledEngine({ PATH: `${nodeDir}:${bin}` })).toMatchObject({
      source: "PATH",
      version: "3.270.0",
      pulumi: join(bin, "pulumi"),
      binDir: bin,
      languageHost: join(bin, "pulumi-language-nodejs"),
      sdkVersion,
    });
  });

  it("prefers INCIDENT_SYNC_PULUMI_BIN to PATH", () => {
    const chosen = install("chosen", "3.259.0", true);
    const other = install("other", "3.270.0", true);
    const engine = findInstalledEngine({ PATH: other, INCIDENT_SYNC_PULUMI_BIN: chosen });
    expect([engine.source, engine.version]).toEqual(["INCIDENT_SYNC_PULUMI_BIN", "3.259.0"]);
  });

  it("says how to install Pulumi when there is none, one too old, or no language host", () => {
    expect(message(() => findInstalledEngine({ PATH: nodeDir }))).toMatchInlineSnapshot(
      `"No Pulumi CLI: \`pulumi\` is not on PATH. To run the engine, install Pulumi 3.181.0 or later, best v<sdk> like your @pulumi/pulumi (https://www.pulumi.com/docs/install/, which puts pulumi and pulumi-language-nodejs in ~/.pulumi/bin), and put that directory on PATH or set INCIDENT_SYNC_PULUMI_BIN to it."`,
    );
    const old = install("old", "3.100.0", true);
    expect(message(() => findInstalledEngine({ PATH: old }))).toMatchInlineSnapshot(
      `"<root>/old/bin/pulumi is Pulumi v3.100.0; incident-sync needs 3.181.0 or later: install Pulumi 3.181.0 or later, best v<sdk> like your @pulumi/pulumi (https://www.pulumi.com/docs/install/, which puts pulumi and pulumi-language-nodejs in ~/.pulumi/bin), and put that directory on PATH or set INCIDENT_SYNC_PULUMI_BIN to it."`,
    );
    const alone = install("alone", "3.259.0", false);
    expect(message(() => findInstalledEngine({ PATH: alone }))).toMatchInlineSnapshot(
      `"The Pulumi CLI at <root>/alone/bin/pulumi has no Node.js language host (pulumi-language-nodejs) beside it or on PATH, and it is needed to run the program: install Pulumi 3.181.0 or later, best v<sdk> like your @pulumi/pulumi (https://www.pulumi.com/docs/install/, which puts pulumi and pulumi-language-nodejs in ~/.pulumi/bin), and put that directory on PATH or set INCIDENT_SYNC_PULUMI_BIN to it."`,
    );
    expect(
      message(() => findInstalledEngine({ PATH: alone, INCIDENT_SYNC_PULUMI_BIN: root })),
    ).toMatchInlineSnapshot(
      `"INCIDENT_SYNC_PULUMI_BIN=<root> holds no working \`pulumi\` binary: point it at the directory that contains one, or unset it."`,
    );
  });
});
