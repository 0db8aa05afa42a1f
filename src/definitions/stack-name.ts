/**
 * A Pulumi stack named as Pulumi names it: `stack`, `org/stack` or `org/project/stack`,
 * each part as `pulumi stack init` accepts it (letters, digits, `-`, `_`, `.`). A leaf with
 * no imports, so that `--stack` is checked without loading the definitions' schemas.
 */
export const STACK_NAME_PATTERN = /^(?:[A-Za-z0-9_.-]{1,100}\/){0,2}[A-Za-z0-9_.-]{1,100}$/;

export const STACK_NAME_RULE =
  "must be a stack name as Pulumi writes it, stack, org/stack or org/project/stack, each part 1 to 100 letters, digits, -, _ or .";

/** A stack's name in parts; a part the name leaves out is unknown, not empty. */
export interface StackRef {
  readonly organization?: string;
  readonly project?: string;
  readonly stack: string;
}

/** `prod`, `acme/prod`, `acme/incidents/prod` in parts. */
export function parseStackName(name: string): StackRef {
  const parts = name.split("/");
  const stack = parts.at(-1) ?? name;
  if (parts.length === 3) return { organization: parts[0] ?? "", project: parts[1] ?? "", stack };
  if (parts.length === 2) return { organization: parts[0] ?? "", stack };
  return { stack };
}

/** The stack's own name, without organization or project: what `Pulumi.<stack>.yaml` and URNs hold. */
export function bareStackName(name: string): string {
  return parseStackName(name).stack;
}

/**
 * Whether two names can be the same stack: the stack names are equal, and so is every
 * other part both of them name. So `prod` in a definition's `stacks` is the stack `prod` of
 * any organization, `acme/prod` only acme's, and `validate --stack prod` reads both.
 */
export function sameStack(a: string | StackRef, b: string | StackRef): boolean {
  const x = typeof a === "string" ? parseStackName(a) : a;
  const y = typeof b === "string" ? parseStackName(b) : b;
  const agree = (left: string | undefined, right: string | undefined) =>
    left === undefined || right === undefined || left === right;
  return (
    x.stack === y.stack && agree(x.organization, y.organization) && agree(x.project, y.project)
  );
}

/**
 * The stack a sandbox (`up --emulator --stack <name>`) stands in for: the team's stack as
 * named, in `project` unless the name says another. Its definitions are chosen as that stack's,
 * whatever the sandbox's own backend calls it.
 */
export function standInStack(name: string, project: string): StackRef {
  const ref = parseStackName(name);
  return { ...ref, project: ref.project ?? project };
}

/**
 * Whether a definition is declared on `stack`: one with no `stacks` list belongs to every
 * stack, and an entry names the stack when it can be the same stack (`sameStack`: `prod` is
 * `acme/prod`). The program, `validate --stack` and `plan --stack` all choose by this rule.
 */
export function belongsToStack(
  definition: { stacks?: readonly string[] | undefined },
  stack: string | StackRef,
): boolean {
  return definition.stacks?.some((entry) => sameStack(entry, stack)) ?? true;
}
