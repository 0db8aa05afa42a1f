import { z } from "zod";

/** An entry of a list page that the schema refused: left out, and said why. */
export interface SkippedEntry {
  /** Its place on the page, from 0. */
  readonly index: number;
  /** Its `id`, when it had a string (or number) one. */
  readonly id: string | undefined;
  /** Its `name`, when it had a string one. */
  readonly name: string | undefined;
  readonly problem: string;
}

/**
 * The entries of a list answer, each read on its own with `schema`: one the contract refuses
 * is left out and listed in `skipped`, so one odd entry does not hide the others.
 */
export function readEntries<S extends z.ZodType>(
  answer: readonly unknown[],
  schema: S,
): { entries: z.output<S>[]; skipped: SkippedEntry[] } {
  const entries: z.output<S>[] = [];
  const skipped: SkippedEntry[] = [];
  answer.forEach((entry, index) => {
    const parsed = schema.safeParse(entry);
    if (parsed.success) {
      entries.push(parsed.data);
      return;
    }
    const { id, name } = (entry ?? {}) as { id?: unknown; name?: unknown };
    skipped.push({
      index,
      id: typeof id === "string" ? id : typeof id === "number" ? String(id) : undefined,
      name: typeof name === "string" ? name : undefined,
      problem: z.prettifyError(parsed.error).replaceAll("\n", " "),
    });
  });
  return { entries, skipped };
}
