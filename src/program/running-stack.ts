import * as pulumi from "@pulumi/pulumi";
import { type StackRef, standInStack } from "../definitions";
import { sandboxOf } from "../settings/run-context";

/**
 * The stack the program runs on, in every part Pulumi knows (organization, project, stack),
 * so that a definition's `stacks: [acme/prod]` is declared on acme's prod and not another's.
 * A sandbox (`up --emulator`) runs as the team's stack it stands for, as `incident-sync up`
 * chose its definitions (`standInStack`), not as its own backend names it.
 */
export function runningStack(env: NodeJS.ProcessEnv = process.env): StackRef {
  const standsFor = sandboxOf(env);
  if (standsFor !== undefined) return standInStack(standsFor, pulumi.getProject());
  // Unit tests under Pulumi's mocks may run without an organization: then it is unknown.
  const organization = pulumi.getOrganization() || undefined;
  return {
    ...(organization === undefined ? {} : { organization }),
    project: pulumi.getProject(),
    stack: pulumi.getStack(),
  };
}
