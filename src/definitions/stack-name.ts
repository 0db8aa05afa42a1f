/**
 * A Pulumi stack's name as `pulumi stack init` accepts it (letters, digits, `-`, `_`, `.`),
 * without an organization or project: a definition belongs to stacks of this project. A leaf
 * with no imports, so that `--stack` is checked without loading the definitions' schemas.
 */
export const STACK_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,100}$/;

export const STACK_NAME_RULE =
  "must be a stack name: 1 to 100 letters, digits, -, _ or . (no organization or project)";
