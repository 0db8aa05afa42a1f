import { quoteText } from "../api/schemas";
import { CATALOG_FILES } from "./catalog";
import type { CatalogService, LoadedDefinition } from "./parsed-file";
import type { Position } from "./position";
import type { DefinitionProblem } from "./problem";

/** Where a service's name was first given: in the catalog, or in a definition. */
interface NamedAt extends Position {
  readonly name: string;
  readonly file: string;
}

/**
 * Every service's name: the definition's, else the catalog's. Named nowhere, or two ways (each
 * PUT would rename it on the status page), is a problem at its place.
 */
export function nameServices(
  loaded: readonly LoadedDefinition[],
  catalog: readonly CatalogService[],
): { definitions: LoadedDefinition[]; problems: DefinitionProblem[] } {
  const problems: DefinitionProblem[] = [];
  const fromCatalog = new Map<string, NamedAt>();
  for (const service of catalog) {
    const first = fromCatalog.get(service.id);
    // Both services.yaml and services.yml: a service they name alike is named once.
    if (first === undefined) fromCatalog.set(service.id, service);
    else if (first.name !== service.name) {
      problems.push(conflict(service, service.id, service.name, first));
    }
  }
  const inline = new Map<string, NamedAt>();
  const definitions = loaded.map((item) => {
    const services = item.definition.services.map((service, index) => {
      const at = item.servicesAt[index] ?? item.at;
      const place = { file: item.file, ...at };
      const listed = fromCatalog.get(service.id);
      if (service.name === undefined) {
        if (listed) return { id: service.id, name: listed.name };
        problems.push({ ...place, code: "unnamed-service", message: unnamedMessage(service.id) });
        return service;
      }
      const first = listed ?? inline.get(service.id);
      if (first === undefined) inline.set(service.id, { name: service.name, ...place });
      else if (first.name !== service.name) {
        problems.push(conflict(place, service.id, service.name, first));
      }
      return service;
    });
    return { ...item, definition: { ...item.definition, services } };
  });
  return { definitions, problems };
}

function unnamedMessage(id: string): string {
  return `service ${quoteText(id)} has no name, and the API requires one for every service: write it as { id: ${id}, name: <name> } here, or name it once in the services catalog (add "${id}: <name>" to ${CATALOG_FILES[0]} in the definitions directory)`;
}

function conflict(
  place: Position & { readonly file: string },
  id: string,
  name: string,
  first: NamedAt,
): DefinitionProblem {
  return {
    file: place.file,
    line: place.line,
    column: place.column,
    code: "service-name-conflict",
    message: `service ${quoteText(id)} is named ${quoteText(name)} here but ${quoteText(first.name)} at ${first.file}:${first.line}:${first.column}; a service has one name on the status page, so make them agree (or leave the name out here and keep it in ${CATALOG_FILES[0]})`,
  };
}
