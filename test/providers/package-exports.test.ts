import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "..", "..");

describe("the package's public surface", () => {
  it("exports the Incident resource and the program's building blocks from its main entry", () => {
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      main: string;
      types: string;
      version: string;
    };
    // What `import { Incident } from "incident-sync"` loads once the package is installed.
    const entry = require(join(root, manifest.main)) as Record<string, unknown>;
    expect(typeof entry.Incident).toBe("function");
    for (const name of [
      "declareIncidents",
      "incidentOutputs",
      "loadProgramDefinitions",
      "programClient",
      "readProgramConfig",
      "formatSummary",
    ]) {
      expect(typeof entry[name], name).toBe("function");
    }
    expect(entry.PROVIDER_VERSION).toBe(manifest.version);
    expect(readFileSync(join(root, manifest.types), "utf8")).toContain("Incident");
  });
});
