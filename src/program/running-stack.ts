import * as pulumi from "@pulumi/pulumi";
import type { StackRef } from "../definitions";

/**
 * The stack the program runs on, in every part Pulumi knows (organization, project, stack),
 * so that a definition's `stacks: [acme/prod]` is declared on acme's prod and not another's.
 */
export function runningStack(): StackRef {
  // Unit tests under Pulumi's mocks may run without an organization: then it is unknown.
  const organization = pulumi.getOrganization() || undefined;
  return {
    ...(organization === undefined ? {} : { organization }),
    project: pulumi.getProject(),
    stack: pulumi.getStack(),
  };
}
