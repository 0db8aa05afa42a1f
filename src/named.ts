/**
 * How a line a person reads names a thing (STYLE.md rule 20): its name, then in brackets what
 * else tells it apart (its resource, its id), each once and in that order. Without a name the
 * first detail leads, so a thing known only by its id stays its id.
 * @example named("Nightly invoice run", ["hb-7f3a"]) // "Nightly invoice run (hb-7f3a)"
 * @example named(undefined, ["api-errors", "inc-1"]) // "api-errors (inc-1)"
 * @example named(undefined, ["inc-1"]) // "inc-1"
 */
export function named(
  name: string | null | undefined,
  details: readonly (string | null | undefined)[],
): string {
  const shown = name?.trim() ? name : undefined;
  const rest: string[] = [];
  for (const detail of details) {
    if (!detail || detail === shown || rest.includes(detail)) continue;
    rest.push(detail);
  }
  const [lead, ...after] = shown === undefined ? rest : [shown, ...rest];
  if (lead === undefined) return "";
  return after.length === 0 ? lead : `${lead} (${after.join(", ")})`;
}
