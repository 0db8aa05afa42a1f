import type { Service, StatusPage } from "../../api/schemas";
import { CATALOG_FILES, ServiceCatalog } from "../../definitions";
import { MAX_FILE_BYTES } from "../../definitions/limits";
import { type CatalogGroup, catalogYaml, definitionYaml } from "../../definitions/yaml-write";
import { type MirroredIncident, mirrorOf } from "../../incident/mirror";
import type { NewFile } from "../../project-write";
import { uniqueFileName } from "./file-name";

/*
 * What `incident-sync import` writes, decided from what it read and what the project holds,
 * with no I/O: the services catalog when there is none, and one definition per incident not
 * defined yet (open ones, or all with --all). A file that exists is never in the list, so a
 * second run over the same service writes nothing. Every file written is one `validate` passes:
 * an incident it could not hold is refused, with why, and not written.
 */

/** What import read of the service. */
export interface ImportRead {
  /** The services list. */
  readonly services: readonly Service[];
  readonly statusPages: readonly StatusPage[];
  /** Every incident of the list, its updates read. */
  readonly incidents: readonly (MirroredIncident & { readonly created_at?: string | null })[];
}

/** What the project holds already. */
export interface ProjectNow {
  /** The definitions directory from the project's root, with `/`: where the files go. */
  readonly dir: string;
  /** The names of the files at the top of the definitions directory. */
  readonly files: readonly string[];
  /** The incidents defined there already: id → the file that defines it. */
  readonly defined: ReadonlyMap<string, string>;
  /** The names the catalog gives, when the directory has one; else undefined. */
  readonly catalog: ReadonlyMap<string, string> | undefined;
  /** The JSON Schemas' folder, from the definitions directory, for the editor's comment. */
  readonly schemaDir: string;
}

export interface ImportedIncident {
  readonly path: string;
  readonly incidentId: string;
  readonly name: string;
  readonly status: string;
  readonly updates: number;
}

export interface ImportPlan {
  /** Every file to create, the catalog first. */
  readonly files: NewFile[];
  /** The catalog written, with how many services; undefined when the project has one. */
  readonly catalog: { readonly path: string; readonly services: number } | undefined;
  readonly incidents: ImportedIncident[];
  /** Incidents the directory defines already: not written again. */
  readonly alreadyDefined: { readonly incidentId: string; readonly file: string }[];
  /** Resolved incidents left out (without --all). */
  readonly resolvedLeftOut: number;
  /** Incidents no valid definition can mirror, and why. */
  readonly refused: {
    readonly incidentId: string;
    readonly name: string;
    readonly reason: string;
  }[];
  /** What else a person should know: services the catalog could not hold, … */
  readonly notes: string[];
}

/** Width of the comment lines written. */
const COMMENT_WIDTH = 94;

export function planImport(
  read: ImportRead,
  now: ProjectNow,
  options: { readonly all: boolean },
): ImportPlan {
  const notes: string[] = [];
  const files: NewFile[] = [];
  const taken = new Set([...now.files, ...CATALOG_FILES].map((file) => file.toLowerCase()));
  let catalog = now.catalog;
  let written: ImportPlan["catalog"];
  if (catalog === undefined) {
    const groups = catalogGroups(read, notes);
    const path = `${now.dir}/${CATALOG_FILES[0]}`;
    const services = groups.flatMap((group) => group.services);
    catalog = new Map(services.map((service) => [service.id, service.name]));
    files.push({ path, text: catalogYaml(catalogHeader(now.schemaDir), groups) });
    written = { path, services: catalog.size };
  }
  const incidents: ImportedIncident[] = [];
  const alreadyDefined: ImportPlan["alreadyDefined"] = [];
  const refused: ImportPlan["refused"][number][] = [];
  let resolvedLeftOut = 0;
  for (const incident of byCreation(oncePerId(read.incidents))) {
    const file = now.defined.get(incident.id);
    if (file !== undefined) {
      alreadyDefined.push({ incidentId: incident.id, file });
      continue;
    }
    const mirror = mirrorOf(incident, catalog);
    const status = mirror.kind === "definition" ? mirror.status : incident.lastUpdateStatus;
    if (!options.all && status === "RESOLVED") {
      resolvedLeftOut += 1;
      continue;
    }
    if (mirror.kind === "refused") {
      refused.push({ incidentId: incident.id, name: incident.name, reason: mirror.reason });
      continue;
    }
    const text = definitionYaml(definitionHeader(now.schemaDir, mirror.notes), mirror.definition);
    const bytes = Buffer.byteLength(text, "utf8");
    if (bytes > MAX_FILE_BYTES) {
      refused.push({ incidentId: incident.id, name: incident.name, reason: tooLarge(bytes) });
      continue;
    }
    const path = `${now.dir}/${uniqueFileName(incident.name, incident.id, taken)}`;
    files.push({ path, text });
    incidents.push({
      path,
      incidentId: incident.id,
      name: incident.name,
      status: mirror.status,
      updates: mirror.definition.updates?.length ?? 0,
    });
  }
  return { files, catalog: written, incidents, alreadyDefined, resolvedLeftOut, refused, notes };
}

/**
 * Each incident once, however often the list repeats it (a list that shifts between pages
 * does): the copy with the most updates read, of those the last listed.
 */
function oncePerId<T extends MirroredIncident>(incidents: readonly T[]): T[] {
  const kept = new Map<string, T>();
  for (const incident of incidents) {
    const other = kept.get(incident.id);
    if (other === undefined || incident.incidentUpdates.length >= other.incidentUpdates.length) {
      kept.set(incident.id, incident);
    }
  }
  return [...kept.values()];
}

/** Why a definition too large for `validate` to read is not written. */
function tooLarge(bytes: number): string {
  const kib = (count: number) => `${Math.ceil(count / 1024).toLocaleString("en-US")} KiB`;
  return `its definition would be a file of ${kib(bytes)}, and validate reads none over ${kib(MAX_FILE_BYTES)}: a message that long does not fit a definitions file`;
}

/** Oldest first, by when the service says each was created, then by id: the same every run. */
function byCreation<T extends { id: string; created_at?: string | null }>(items: readonly T[]) {
  const created = (item: T) => Date.parse(item.created_at ?? "") || 0;
  return [...items].sort((a, b) => created(a) - created(b) || a.id.localeCompare(b.id));
}

/**
 * Every service the catalog can hold, grouped as the status pages show them (each page's cards
 * in order), then the rest by name; the name from the services list, else a card's, else an
 * incident's. A service with no name, or one a catalog refuses, is left out, and said.
 */
function catalogGroups(read: ImportRead, notes: string[]): CatalogGroup[] {
  const names = new Map<string, string>();
  const cardServices = read.statusPages.flatMap((page) =>
    page.cards.flatMap((card) => card.services),
  );
  const incidentServices = read.incidents.flatMap((incident) => incident.services);
  for (const service of [...read.services, ...cardServices, ...incidentServices]) {
    if (service.name && !names.has(service.id)) names.set(service.id, service.name);
  }
  const unnamed = new Set(
    [...read.services, ...cardServices, ...incidentServices]
      .map((service) => service.id)
      .filter((id) => !names.has(id)),
  );
  if (unnamed.size > 0) {
    notes.push(
      `No name was given anywhere for the service(s) ${[...unnamed].join(", ")}: not in the catalog.`,
    );
  }
  for (const [id, name] of names) {
    const checked = ServiceCatalog.safeParse(Object.fromEntries([[id, name]]));
    if (!checked.success) {
      names.delete(id);
      notes.push(
        `The service ${JSON.stringify(id)} (${JSON.stringify(name)}) is not in the catalog: ${checked.error.issues[0]?.message ?? "a catalog refuses it"}.`,
      );
    }
  }
  const groups: CatalogGroup[] = [];
  const pages = [...read.statusPages].sort((a, b) => a.id.localeCompare(b.id));
  for (const page of pages) {
    for (const card of page.cards) {
      const services = card.services.flatMap((service) => {
        const name = names.get(service.id);
        return name === undefined ? [] : [{ id: service.id, name }];
      });
      const where = [page.name ?? page.id, card.name].filter(Boolean).join(": ");
      groups.push({ comment: `On the status page ${where}`, services });
    }
  }
  const shown = new Set(groups.flatMap((group) => group.services.map((service) => service.id)));
  const rest = [...names]
    .filter(([id]) => !shown.has(id))
    .map(([id, name]) => ({ id, name }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  if (rest.length > 0) {
    groups.push({ comment: groups.length > 0 ? "On no status page" : undefined, services: rest });
  }
  return groups;
}

function catalogHeader(schemaDir: string): string[] {
  return [
    `yaml-language-server: $schema=${schemaDir}/services.schema.json`,
    "",
    ...wrap(
      "The services catalog, imported from the service by incident-sync import: every service of the account by its id, with the name the status page shows. Incidents list a service by its id alone.",
    ),
  ];
}

function definitionHeader(schemaDir: string, notes: readonly string[]): string[] {
  return [
    `yaml-language-server: $schema=${schemaDir}/incident.schema.json`,
    "",
    ...wrap(
      "Imported from the status page by incident-sync import: its updates are what customers have read, oldest first, each dated as the status page shows it. Add an entry to tell them more.",
    ),
    ...notes.flatMap((note) => wrap(note)),
  ];
}

/** A sentence as comment lines of at most COMMENT_WIDTH characters, broken between words. */
function wrap(text: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > COMMENT_WIDTH) {
      lines.push(line);
      line = word;
    } else {
      line = line === "" ? word : `${line} ${word}`;
    }
  }
  if (line !== "") lines.push(line);
  return lines;
}
