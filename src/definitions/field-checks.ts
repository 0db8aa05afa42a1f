import type { z } from "zod";
import {
  CUSTOMER_TEXT,
  describeCharacter,
  findHidden,
  type HiddenAllowed,
  type PathIdProblem,
  pathIdMessage,
  quoteText,
} from "../api/schemas";

/*
 * The checks of what people write in a field: text that must be seen as it is (ids, names,
 * free text), and lists whose items are each listed once.
 */

/**
 * What is wrong with a name or id written in a definition, in the shape `PathId` uses
 * (`params.pathId`), so one reader turns both into problems.
 */
export type TextProblem = Exclude<PathIdProblem, { kind: "dot-segment" }>;

/** Whether a text is non-empty but only whitespace. */
function isBlank(value: string): boolean {
  return value !== "" && value.trim() === "";
}

/**
 * Text checks are plain checks, not superRefine: they run for every id and name of every
 * definition, and superRefine adds a closure to each parse's payload.
 */
type TextPayload = z.core.ParsePayload<string>;

function addTextIssue(payload: TextPayload, problem: TextProblem, message: string): void {
  payload.issues.push({
    code: "custom",
    message,
    input: payload.value,
    params: { text: problem },
    continue: true,
  });
}

/** A title must say something: text that is only whitespace is refused. */
export function notBlank(payload: TextPayload): void {
  if (isBlank(payload.value)) {
    addTextIssue(payload, { kind: "blank" }, pathIdMessage({ kind: "blank" }));
  }
}

/**
 * Refuses the first character of the text that cannot be seen or that changes how the text
 * around it is shown (controls, zero-width and bidirectional characters, see
 * `isHiddenCharacter`), other than those `allowed`, naming it and its position.
 */
function refuseHidden(payload: TextPayload, allowed: HiddenAllowed, why: string): void {
  const found = findHidden(payload.value, allowed);
  if (found === undefined) return;
  addTextIssue(
    payload,
    { kind: "character", ...found },
    `must not contain ${describeCharacter(found.codePoint)} (character ${found.position}), ${why}`,
  );
}

/**
 * An id that is not a path parameter (a service id, a resource name): not blank, and
 * free of characters a reader cannot see, which make two different ids look alike.
 */
export function visibleId(payload: TextPayload): void {
  if (isBlank(payload.value)) {
    notBlank(payload);
    return;
  }
  refuseHidden(
    payload,
    { characters: [], emoji: false },
    "which cannot be seen and makes different ids look alike",
  );
}

const SHOWN_DIFFERENTLY = "which cannot be seen or changes how the text around it is shown";

/**
 * A name shown to people (an incident's title, a service's name): no control character
 * other than a tab, and no zero-width or bidirectional character but the joiners inside an
 * emoji. An escape sequence or a right-to-left override in a title would reach the status
 * page, terminals and reviews.
 */
export function visibleName(payload: TextPayload): void {
  refuseHidden(payload, CUSTOMER_TEXT.name, SHOWN_DIFFERENTLY);
}

/**
 * What customers read in an update: as a name, and it may run over several lines and hold
 * what pasted text holds (`CUSTOMER_TEXT.message`).
 */
export function customerMessage(payload: TextPayload): void {
  refuseHidden(payload, CUSTOMER_TEXT.message, SHOWN_DIFFERENTLY);
}

/** Free text for reviewers (a reason): as a name, but it may run over several lines. */
export function readableText(payload: TextPayload): void {
  refuseHidden(payload, { characters: ["\t", "\n"], emoji: true }, SHOWN_DIFFERENTLY);
}

/** Runs a list's check even when some items failed, so every problem is told at once. */
export function always(): boolean {
  return true;
}

/**
 * Reports each id listed again, naming the item it repeats. Items that failed their own
 * schema are skipped, so a list with a bad item still gets its repeats reported.
 */
export function noRepeats(what: string) {
  return (items: readonly unknown[], ctx: z.RefinementCtx): void => {
    if (!Array.isArray(items)) return;
    const firstIndex = new Map<string, number>();
    items.forEach((item, index) => {
      const id = typeof item === "string" ? item : idOf(item);
      if (id === undefined) return;
      const first = firstIndex.get(id);
      if (first === undefined) {
        firstIndex.set(id, index);
        return;
      }
      ctx.addIssue({
        code: "custom",
        path: [index],
        message: `${what} ${quoteText(id)} is listed twice (also item ${first + 1}); remove one`,
        input: item,
        params: { repeat: true },
      });
    });
  };
}

function idOf(item: unknown): string | undefined {
  if (typeof item !== "object" || item === null) return undefined;
  const id: unknown = (item as { id?: unknown }).id;
  return typeof id === "string" ? id : undefined;
}
