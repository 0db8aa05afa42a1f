import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  CATALOG_JSON_SCHEMA_PATH,
  definitionJsonSchemaText,
  isCatalogFile,
  JSON_SCHEMA_PATH,
  jsonSchemaFiles,
} from "../../src/definitions";

const root = path.join(__dirname, "..", "..");

describe("the JSON Schema for editors", () => {
  it("is committed exactly as generated from the zod schemas (run npm run schema when this fails)", () => {
    for (const file of jsonSchemaFiles()) {
      const committed = readFileSync(path.join(root, file.path), "utf8");
      expect(committed, file.path).toBe(file.text);
    }
  });

  it("describes the services catalog as a mapping of service id to a name", () => {
    const file = jsonSchemaFiles().find((entry) => entry.path === CATALOG_JSON_SCHEMA_PATH);
    const schema = JSON.parse(file?.text ?? "{}");
    expect(schema.type).toBe("object");
    expect(schema.additionalProperties.type).toBe("string");
    expect(schema.additionalProperties.minLength).toBe(1);
  });

  it("lets editors offer every key, the allowed values and the name limit", () => {
    const [schema, window] = JSON.parse(definitionJsonSchemaText()).anyOf;
    expect(Object.keys(schema.properties)).toEqual([
      "resource",
      "aliases",
      "id",
      "name",
      "severity",
      "status",
      "services",
      "duration",
      "updates",
      "evidence",
      "stacks",
      "onRemove",
      "closing",
      "reopen",
      "reason",
      "kind",
    ]);
    // Without id a definition opens a new incident (with resource and updates), and with updates
    // the status is the last entry's: rules between fields, which the loader checks.
    expect(schema.required).toEqual(["name", "severity", "services"]);
    expect(schema.properties.updates.items.required).toEqual(["status", "message"]);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.severity.enum).toEqual(["CRITICAL", "MAJOR", "MEDIUM", "MINOR"]);
    expect(schema.properties.name.maxLength).toBe(255);
    expect(schema.properties.services.minItems).toBe(1);

    // A maintenance window (issue 50): its kind, its times and its reminders' bounds.
    expect(window.required).toEqual(["kind", "resource", "name", "startsAt", "endsAt"]);
    expect(window.properties.kind.const).toBe("maintenance");
    expect(window.additionalProperties).toBe(false);
    expect(window.properties.name.maxLength).toBe(200);
    expect(window.properties.notify.properties.remindBefore).toMatchObject({
      maxItems: 3,
      items: { minimum: 60, maximum: 10_080 },
    });
    expect(window.properties.updates.items.properties.status.enum).toEqual([
      "SCHEDULED",
      "IN_PROGRESS",
      "VERIFYING",
      "COMPLETED",
      "CANCELLED",
    ]);
  });

  it("is named by a modeline in every example file, as a path that resolves to it", () => {
    const dir = path.join(root, "incidents");
    const files = readdirSync(dir).filter((name) => name.endsWith(".yaml"));
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) {
      const firstLine = readFileSync(path.join(dir, name), "utf8").split("\n")[0] ?? "";
      const match = /^# yaml-language-server: \$schema=(.+)$/.exec(firstLine);
      expect(match, `${name} starts with the modeline`).not.toBeNull();
      const schema = isCatalogFile(name) ? CATALOG_JSON_SCHEMA_PATH : JSON_SCHEMA_PATH;
      expect(path.resolve(dir, match?.[1] ?? "")).toBe(path.join(root, schema));
    }
  });
});
