/** An incident the service does not have, and the two ways forward. */
export function missingMessage(incidentId: string, accountId: string | undefined): string {
  return `Incident "${incidentId}" does not exist${account(accountId)}. Fix the id in its definition, or leave "id" out (with "resource" and "updates") to open a new incident.`;
}

/** A delete cannot resolve what is not there: say how to let go of it, or what to fix. */
export function missingOnRemoveMessage(incidentId: string, accountId: string | undefined): string {
  return `Incident "${incidentId}" does not exist${account(accountId)}, so its onRemove: resolve cannot resolve it. If the incident is gone for good, remove the resource from the state with \`pulumi state delete <urn>\` (\`pulumi stack --show-urns\` lists them); if the account or key is wrong, fix the stack config and run again.`;
}

/** A service with only the spec's excerpt: it cannot open incidents or post updates. */
export function lacksOperationMessage(request: {
  method: string;
  path: string;
  status?: number | undefined;
}): string {
  return `The service answered ${request.method} ${request.path} with ${request.status}: it does not offer the operations that open incidents and post updates (the public reference's, beyond the spec). Nothing was sent. Open the incident on the status page, put its id in the definition, and declare its status with "status:" instead of "updates:".`;
}

function account(accountId: string | undefined): string {
  return accountId ? ` in account "${accountId}"` : "";
}
