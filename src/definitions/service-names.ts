import { quoteText } from "../api/schemas";
import { closestMatch } from "../suggest";
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
  // Every service named anywhere: what an unnamed id is most likely a typo of.
  const named = [
    ...new Set([
      ...fromCatalog.keys(),
      ...loaded.flatMap((item) =>
        item.definition.services.flatMap((service) => (service.name ? [service.id] : [])),
      ),
    ]),
  ];
  const definitions = loaded.map((item) => {
    const services = item.definition.services.map((service, index) => {
      const at = item.servicesAt[index] ?? item.at;
      const place = { file: item.file, ...at };
      const listed = fromCatalog.get(service.id);
      if (service.name === undefined) {
        if (listed) return { id: service.id, name: listed.name };
        const message = unnamedMessage(
          service.id,
          closestMatch(
            service.id,
            named.filter((id) => id !== service.id),
          ),
        );
        problems.push({ ...place, code: "unnamed-service", message });
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

/** A service named nowhere: most likely a typo of a service named elsewhere, else a new one. */
function unnamedMessage(id: string, closest: string | undefined): string {
  if (closest !== undefined) {
    return `service ${quoteText(id)} is named nowhere, neither here nor in the services catalog: did you mean ${quoteText(closest)}? A new service needs its name, as { id: ${id}, name: <name> } here or "${id}: <name>" in ${CATALOG_FILES[0]}`;
  }
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
