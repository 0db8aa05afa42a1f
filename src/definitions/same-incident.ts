/*
 * When two definitions open the same incident. A new incident (no id) is known on the service
 * by its name and first message: opening one finds and takes an incident opened that way
 * (src/incident/creation.ts). The rule lives here, below src/incident, so that `validate`
 * refuses a pasted twin by the very rule the provider opens by.
 */

/** A message as compared: whatever line endings and outer blanks. */
export function normalizeMessage(text: string): string {
  return text.replace(/\r\n?/g, "\n").trim();
}

/** Whether two texts are the same message, whatever line endings and outer blanks. */
export function sameMessage(a: string, b: string): boolean {
  return normalizeMessage(a) === normalizeMessage(b);
}

/** What a definition is opened as, as far as this rule reads it. */
export interface OpeningFields {
  readonly id?: string | undefined;
  readonly name: string;
  readonly updates?: readonly { readonly message: string }[] | undefined;
}

/**
 * The key two definitions share exactly when they open the same incident: the name and first
 * message of one without `id`; `undefined` for one with an id (it names its incident) or with
 * no message yet.
 */
export function openingKey(definition: OpeningFields): string | undefined {
  const first = definition.updates?.[0];
  if (definition.id !== undefined || first === undefined) return undefined;
  return JSON.stringify([definition.name, normalizeMessage(first.message)]);
}

/**
 * Whether two definitions without `id` open the same incident: the same name and first
 * message, so opening the second finds (and takes) the one the first opened.
 */
export function opensSameIncident(a: OpeningFields, b: OpeningFields): boolean {
  const key = openingKey(a);
  return key !== undefined && key === openingKey(b);
}
