import { docBlock } from "../../support/doc-blocks";

/**
 * The command lines of the plain-CLI block marked `<!-- test: plain-cli/name -->` in
 * docs/provider-and-program.md, comments and blank lines dropped: what a user types, word for word.
 */
export function plainCliBlock(name: string): string[] {
  return docBlock(`plain-cli/${name}`).commands;
}
