import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { type AliasBudget, documentValue } from "./document-value";
import { FileProblems } from "./file-problems";
import { describeIssue, describeValue, type IssueText } from "./issue-message";
import type { CatalogService, ParsedFile, SourceFile } from "./parsed-file";
import { PositionIndex } from "./position";
import { DefinitionServiceObject } from "./references";
import { readYamlDocuments } from "./yaml-documents";
import { Locator } from "./yaml-locate";

/*
 * The services catalog: one file in the definitions directory that names each service once, so
 * incidents can list services by id. The service's API requires a name for every service in a
 * PUT body; a name written in a definition must agree with the catalog's.
 */

/** The catalog's file names, at the top of the definitions directory (the first one found wins). */
export const CATALOG_FILES: readonly string[] = ["services.yaml", "services.yml"];

/** Whether a path relative to the definitions directory is the services catalog. */
export function isCatalogFile(relativePath: string): boolean {
  return CATALOG_FILES.includes(relativePath.replaceAll("\\", "/"));
}

/** The catalog: service id → the name the status page shows. */
export const ServiceCatalog = z
  .record(DefinitionServiceObject.shape.id, DefinitionServiceObject.shape.name.unwrap())
  .meta({
    title: "incident-sync services catalog",
    description:
      "services.yaml in the definitions directory: each service id once, with the name the status page shows. Incidents may then list these services by id alone.",
  });

/** Parses the catalog: one YAML mapping (or an empty file); every problem with its position. */
export function parseCatalogFile(file: SourceFile): ParsedFile {
  const positions = new PositionIndex(file.text);
  const problems = new FileProblems(file.path, file.text);
  const { report } = problems;
  const catalog: CatalogService[] = [];
  const { documents } = readYamlDocuments(file.text, report);
  const budget: AliasBudget = { used: 0 };
  let seen = 0;
  for (const { document, broken } of documents) {
    const contents = document.contents as { value?: unknown; items?: unknown } | null;
    if (broken || contents === null || (contents.value === null && !("items" in contents))) {
      continue;
    }
    if (++seen > 1) {
      report(
        document.range[0],
        "too-many-documents",
        "the services catalog is one YAML mapping of service id to name; merge its documents into one",
      );
      continue;
    }
    const converted = documentValue(document, budget, report);
    if (converted === undefined) continue;
    const locator = new Locator(document, converted.index, file.text);
    const result = ServiceCatalog.safeParse(converted.value);
    if (!result.success) {
      for (const issue of result.error.issues) {
        for (const text of describeCatalogIssue(issue, converted.value)) {
          report(locator.offsetOfIssue(text), text.code, text.message);
        }
      }
      continue;
    }
    for (const [id, name] of Object.entries(result.data)) {
      catalog.push({ id, name, file: file.path, ...positions.at(locator.offsetOfKey([], id)) });
    }
  }
  return { definitions: [], identities: [], catalog, ...problems.list() };
}

/**
 * Words for one issue of the catalog. The catalog's own shape and its ids (the mapping's keys,
 * pointed at where they are written) get the catalog's words; a name gets the definitions'.
 */
function describeCatalogIssue(issue: z.core.$ZodIssue, value: unknown): IssueText[] {
  if (issue.code === "invalid_type" && issue.path.length === 0) {
    return [
      {
        code: "not-a-mapping",
        path: [],
        message: `the services catalog must be a mapping of service id to name (such as "svc-api: Public API"), not ${describeValue(value)}`,
      },
    ];
  }
  if (issue.code === "invalid_key") {
    const key = String(issue.path[issue.path.length - 1] ?? "");
    return issue.issues.flatMap((inner) =>
      describeIssue({ ...inner, path: ["service id"] }, { "service id": key }).map(
        ({ code, message }) => ({ code, message, path: issue.path.slice(0, -1), key }),
      ),
    );
  }
  return describeIssue(issue, value);
}

/**
 * The names the catalog of definitions directory `dir` gives, by service id; empty when it has
 * none or it cannot be read (a caller that needs a name says which one is missing).
 */
export async function readServiceNames(dir: string): Promise<Map<string, string>> {
  for (const name of CATALOG_FILES) {
    const file = path.join(dir, name);
    const text = await readFile(file, "utf8").catch(() => undefined);
    if (text === undefined) continue;
    const parsed = parseCatalogFile({ path: file, text, catalog: true });
    return new Map((parsed.catalog ?? []).map((service) => [service.id, service.name]));
  }
  return new Map();
}
