import { InvalidArgumentError, Option } from "commander";
import { STACK_NAME_PATTERN, STACK_NAME_RULE } from "../definitions/stack-name";

/**
 * `--stack <name>` of `validate`, `plan` and `drift`: only the definitions that stack
 * declares (those with no `stacks` list and those that list it), chosen by the program's own
 * rule (`belongsToStack`).
 */
export function stackOption(description: string): Option {
  return new Option("--stack <name>", description).argParser((value: string) => {
    if (!STACK_NAME_PATTERN.test(value)) throw new InvalidArgumentError(`${STACK_NAME_RULE}.`);
    return value;
  });
}
