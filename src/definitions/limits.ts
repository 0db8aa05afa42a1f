/*
 * Bounds on what one file may make the loader do: `validate` runs on anyone's pull request.
 * Each is far above a real definition; going over one is a located problem, never an exception.
 */

/**
 * Largest file read: 512 KiB, room for the 1,000 documents a file may hold at about
 * 500 bytes each. Larger files are not read past it.
 */
export const MAX_FILE_BYTES = 512 * 1024;

/** Most YAML documents (`---`) checked in one file; the rest are not parsed. */
export const MAX_DOCUMENTS = 1_000;

/**
 * Deepest nesting of lists and mappings. A definition needs 3 (the definition, `evidence`,
 * `checks`); past this the YAML composer's recursion could exhaust the stack.
 */
export const MAX_DEPTH = 32;

/**
 * Most nodes that aliases (`*name`) may add to a file's values, counting each alias as
 * the whole node it repeats. Bounds "billion laughs" files and the work of validating
 * what aliases expand to.
 */
export const MAX_ALIAS_NODES = 10_000;

/** Most problems listed for one file; the rest are counted in one last problem. */
export const MAX_PROBLEMS_PER_FILE = 100;
