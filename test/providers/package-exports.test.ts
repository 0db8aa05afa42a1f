import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "..", "..");

const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  main: string;
  types: string;
  version: string;
  exports: Record<string, string | { types: string; default: string }>;
};

/** The file a subpath of the package's exports loads. */
function target(subpath: string): string {
  const entry = manifest.exports[subpath];
  return typeof entry === "string" ? entry : (entry?.default ?? "");
}

describe("the package's public surface", () => {
  it("exports by name what a user needs from its main entry, and nothing else", () => {
    // What `import { … } from "incident-sync"` loads once the package is installed.
    const entry = require(join(root, manifest.main)) as Record<string, unknown>;
    expect(Object.keys(entry).sort()).toMatchInlineSnapshot(`
      [
        "ApiError",
        "BadRequestError",
        "ClientOptionsError",
        "ConflictError",
        "DeadlineError",
        "EventsWalkStuckError",
        "ForbiddenError",
        "Incident",
        "InvalidDefinitionsError",
        "NetworkError",
        "NotFoundError",
        "PagingError",
        "RateLimitError",
        "RedirectError",
        "RequestValidationError",
        "ResponseTooLargeError",
        "ResponseValidationError",
        "ServerError",
        "TimeoutError",
        "UnauthorizedError",
        "UserError",
        "buildPlan",
        "createClient",
        "declareIncidentStack",
        "loadDefinitionObjects",
        "loadDefinitions",
        "renderPlanMarkdown",
        "renderPlanText",
        "writeOutcomeUnknown",
      ]
    `);
    // At most 30 runtime names: a chosen surface, the stored state's shape not among them.
    expect(Object.keys(entry).length).toBeLessThanOrEqual(30);
    expect(readFileSync(join(root, manifest.types), "utf8")).toContain("createClient");
  });

  it("serves the program, the provider operations and the emulator as subpaths", () => {
    const program = require(join(root, target("./program"))) as unknown;
    expect(typeof program).toBe("function");
    const operations = require(join(root, target("./provider-operations"))) as Record<
      string,
      unknown
    >;
    expect(typeof operations.create).toBe("function");
    const emulator = require(join(root, target("./emulator"))) as Record<string, unknown>;
    expect(typeof emulator.createEmulator).toBe("function");
    const reports = require(join(root, target("./reports"))) as Record<string, unknown>;
    for (const name of ["computeDrift", "renderDrift", "collectIncidents", "writeErrorReport"]) {
      expect(typeof reports[name], name).toBe("function");
    }
    expect(typeof emulator.startEmulator).toBe("function");
  });

  it("loads only the API client's packages into the provider plugin", () => {
    // The plugin loads the operations on every run, in a process of its own (PROVIDER_SOURCE):
    // a package they pull in needlessly (the YAML parser did) is start-up time of every `up`.
    const packages = execFileSync(
      process.execPath,
      [
        "-e",
        `require(${JSON.stringify(join(root, target("./provider-operations")))});
const names = new Set();
for (const file of Object.keys(require.cache)) {
  const inPackage = /[\\/]node_modules[\\/]((@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(file);
  if (inPackage) names.add(inPackage[1]);
}
console.log(JSON.stringify([...names].sort()));`,
      ],
      { cwd: root, encoding: "utf8" },
    );
    expect(JSON.parse(packages)).toEqual(["ky", "p-limit", "zod"]);
  });
});
