import { z } from "zod";
import { ServiceCatalog } from "./catalog";
import { MaintenanceDefinition } from "./maintenance-schema";
import { IncidentDefinition } from "./schema";

/** Where the generated schema is committed, relative to the repository root. */
export const JSON_SCHEMA_PATH = "schema/incident.schema.json";
/** Where the services catalog's schema is committed, relative to the repository root. */
export const CATALOG_JSON_SCHEMA_PATH = "schema/services.schema.json";

/**
 * The JSON Schema of one definition, for editors (`yaml-language-server`): an incident, or a
 * maintenance window (`kind: maintenance`). It describes what people write, so defaults are
 * optional and bare service ids are allowed.
 */
export function definitionJsonSchema(): Record<string, unknown> {
  const definition = z.union([IncidentDefinition, MaintenanceDefinition]).meta({
    title: "incident-sync definition",
    description:
      "One definition of incident-sync: a status-page incident, or a scheduled maintenance window (kind: maintenance). A YAML file may hold several, separated by `---`.",
  });
  return z.toJSONSchema(definition, { io: "input", target: "draft-2020-12" });
}

/** The file content: stable key order from the schema, two-space indent, final newline. */
export function definitionJsonSchemaText(): string {
  return `${JSON.stringify(definitionJsonSchema(), null, 2)}\n`;
}

/** Every committed JSON Schema, generated from its zod schema: path and content. */
export function jsonSchemaFiles(): { path: string; text: string }[] {
  const catalog = z.toJSONSchema(ServiceCatalog, { io: "input", target: "draft-2020-12" });
  return [
    { path: JSON_SCHEMA_PATH, text: definitionJsonSchemaText() },
    { path: CATALOG_JSON_SCHEMA_PATH, text: `${JSON.stringify(catalog, null, 2)}\n` },
  ];
}
