import type { IncidentDefinition } from "../definitions/schema";
import { belongsToStack, type StackRef } from "../definitions/stack-name";
import type { IncidentChange, StackEffect } from "./types";

/*
 * What a change of `stacks` does, stack by stack: a stack the list takes away removes the
 * incident from it as deleting the definition would (the onRemove its last apply recorded,
 * the base's), and a stack it adds declares it there.
 */

/** A stack of the project, as a plan names it. */
export interface PlanStack {
  readonly name: string;
  readonly ref: StackRef;
}

/** Shown for the stacks a plan cannot name: those of the project that no list names. */
export const OTHER_STACKS = "every other stack";

/**
 * The effect of an update's `stacks` on each stack of the project (`stacks`), or, with none
 * known, on each stack either list names and on the others together. Ids are unique in the
 * tree, so no other definition can take the incident over on a stack it leaves.
 */
export function stackEffects(
  before: IncidentDefinition,
  after: IncidentDefinition,
  stacks: readonly PlanStack[],
): StackEffect[] {
  const named = [...new Set([...(before.stacks ?? []), ...(after.stacks ?? [])])];
  const shown: { name: string; ref: string | StackRef }[] =
    stacks.length > 0 ? [...stacks] : named.map((name) => ({ name, ref: name }));
  const effects: StackEffect[] = [];
  for (const { name, ref } of shown) {
    const effect = effectOn(belongsToStack(before, ref), belongsToStack(after, ref), before);
    if (effect !== undefined) effects.push({ stack: name, effect });
  }
  // No stack known: the stacks no list names move together, when either side has no list.
  if (stacks.length === 0 && (before.stacks === undefined) !== (after.stacks === undefined)) {
    const effect = effectOn(before.stacks === undefined, after.stacks === undefined, before);
    if (effect !== undefined) effects.push({ stack: OTHER_STACKS, effect });
  }
  return effects;
}

function effectOn(
  was: boolean,
  is: boolean,
  before: IncidentDefinition,
): StackEffect["effect"] | undefined {
  if (was === is) return undefined;
  if (is) return "added";
  return before.onRemove === "resolve" ? "resolved" : "released";
}

/** The stacks on which a change resolves its incident through `stacks` alone. */
export function resolvedByStacks(change: IncidentChange, planStack: string | undefined): string[] {
  if (change.kind === "update") {
    return (change.stacks ?? [])
      .filter((effect) => effect.effect === "resolved")
      .map((effect) => effect.stack);
  }
  if (change.kind === "remove" && change.byStacks === true && change.onRemove === "resolve") {
    return [planStack ?? OTHER_STACKS];
  }
  return [];
}
