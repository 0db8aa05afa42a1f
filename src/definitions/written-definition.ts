/*
 * A definition as `import` writes it, before it is YAML: plain data that the incident's rules
 * (`mirrorOf`) produce and check against the definitions' schema, and `yaml-write.ts` renders.
 * Kept apart from the writer, so the rules load no YAML library (the provider plugin loads them).
 */

/** One entry of `updates` as written. */
export interface WrittenEntry {
  readonly status: string;
  readonly message: string;
  readonly at?: string | undefined;
  /** A comment above the entry. */
  readonly comment?: string | undefined;
}

/** A service of a definition: by id with its name in a comment when the catalog names it. */
export interface WrittenService {
  readonly id: string;
  readonly name: string;
  /** `catalog`: listed by id alone; `here`: written `{ id, name }`. */
  readonly named: "catalog" | "here";
}

/** A service as a definition lists it: a bare id, or `{ id, name }`. */
export function listedService(service: WrittenService): string | { id: string; name: string } {
  return service.named === "catalog" ? service.id : { id: service.id, name: service.name };
}

/** A definition as written: only the fields it sets, each as the docs name it. */
export interface WrittenDefinition {
  readonly id: string;
  readonly name: string;
  readonly severity: string;
  readonly status?: string | undefined;
  readonly reopen?: true | undefined;
  readonly services: readonly WrittenService[];
  /** As the service gives it; none when it gives none (or null). */
  readonly duration?: number | undefined;
  readonly updates?: readonly WrittenEntry[] | undefined;
}
