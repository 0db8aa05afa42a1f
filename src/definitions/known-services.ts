import { quoteText } from "../api/schemas";
import { closestMatch } from "../suggest";
import type { LoadedDefinition } from "./parsed-file";
import type { DefinitionProblem } from "./problem";

/** How many of the service's ids a problem lists when none is close to the one written. */
const LISTED_IDS = 10;

/**
 * Every service a definition lists that `known` does not have, a problem at the place it is
 * written, with the closest known id as a did-you-mean. `where` names the list in a sentence
 * ("the emulator's sandbox"); `advice` says what to do, when there is more to say.
 */
export function unknownServices(
  definitions: readonly LoadedDefinition[],
  known: ReadonlySet<string>,
  where: string,
  advice?: (id: string) => string,
): DefinitionProblem[] {
  return definitions.flatMap((loaded) =>
    loaded.definition.services.flatMap((service, index) => {
      if (known.has(service.id)) return [];
      const at = loaded.servicesAt[index] ?? loaded.at;
      return [
        {
          file: loaded.file,
          line: at.line,
          column: at.column,
          code: "unknown-service" as const,
          message: unknownServiceMessage(service.id, known, where, advice),
        },
      ];
    }),
  );
}

/** Why `id` is not a service of `known`, with the closest one that is, and the advice. */
export function unknownServiceMessage(
  id: string,
  known: ReadonlySet<string>,
  where: string,
  advice?: (id: string) => string,
): string {
  const ids = [...known].sort();
  const said = advice === undefined ? "" : ` ${advice(id)}`;
  return `${unknownServiceReason(id, ids, where)}${said}`;
}

function unknownServiceReason(id: string, ids: readonly string[], where: string): string {
  const suggestion = closestMatch(id, ids);
  const head = `service ${quoteText(id)} is not in ${where}`;
  if (suggestion !== undefined) return `${head}: did you mean ${quoteText(suggestion)}?`;
  if (ids.length === 0) return `${head}, which has no services.`;
  const listed = ids.slice(0, LISTED_IDS).join(", ");
  const more = ids.length > LISTED_IDS ? ` and ${ids.length - LISTED_IDS} more` : "";
  return `${head}, which has ${listed}${more}.`;
}
