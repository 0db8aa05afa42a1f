/** A GUID, as the hosted service gives incidents, checks and services. */
const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * Every line of `text` that shows a GUID the service gives a name to without that name before
 * it on the same line (STYLE 20: a name, then its resource, then the id). A GUID the service
 * names nothing by (an event's, an error group's, an update's) may stand alone.
 */
export function bareGuids(text: string, names: ReadonlyMap<string, string>): string[] {
  return text.split("\n").flatMap((line) =>
    [...line.matchAll(GUID)].flatMap((match) => {
      const name = names.get(match[0].toLowerCase());
      if (name === undefined || line.slice(0, match.index).includes(name)) return [];
      return [`${match[0]} (${name}) shows without its name: ${line.trim()}`];
    }),
  );
}
