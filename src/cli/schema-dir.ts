import path from "node:path";
import { packageRoot } from "../package-root";

/**
 * Where the JSON Schemas are from a definitions directory, for the editor's `$schema` comment
 * of the files `init` and `import` write: in this installed package when it is the project's
 * own, else where `npm install incident-sync` puts them.
 */
export function schemaDirFor(projectDir: string, definitionsDir: string): string {
  const installed = packageRoot();
  const inProject = !path.relative(projectDir, installed).startsWith("..");
  const schema = inProject
    ? path.join(installed, "schema")
    : path.join(projectDir, "node_modules", "incident-sync", "schema");
  return path.relative(path.join(projectDir, definitionsDir), schema).split(path.sep).join("/");
}
