/** The release that removes the 0.1 adapter (legacy-operations.ts), and with it 0.1 state. */
export const LEGACY_REMOVAL_RELEASE = "0.4.0";

/**
 * What a run that goes through 0.1 state is told, once per provider process. Kept apart from
 * the adapter, whose loading prints it, so that reading it prints nothing.
 */
export const LEGACY_DEPRECATION = `incident-sync: deprecated: this stack's state was written by incident-sync 0.1, which ${LEGACY_REMOVAL_RELEASE} will no longer read. Upgrade it: run \`incident-sync up\` (or one plain \`pulumi up\`) once, before removing any definition; every resource then stores the current provider.`;
