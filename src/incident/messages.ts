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

/**
 * A create answered 404, which the reference documents for it: a service sent that the account
 * does not have, a wrong account, or no create at all. `known`: the account's services, when
 * they could be read, to name the unknown ones; else why they could not.
 */
export function createNotFoundMessage(
  request: { method: string; path: string; status?: number | undefined },
  options: {
    label: string;
    accountId: string | undefined;
    sent: readonly string[];
    known: ReadonlySet<string> | { unread: string };
  },
): string {
  const { label, sent, known } = options;
  const head = `${label}: the service answered ${request.method} ${request.path} with ${request.status}, so nothing was opened.`;
  const causes = `It can mean that a service sent is not one of the account's, that the account${options.accountId ? ` "${options.accountId}"` : ""} is not the API key's, or that the service does not offer creating incidents.`;
  const byHand = `If the service does not offer it, open the incident on the status page, put its id in the definition, and declare its status with "status:" instead of "updates:".`;
  if ("unread" in known) {
    return `${head} ${causes} The account's services could not be read to check the ${plural(sent.length, "service")} sent (${known.unread}). Check the ids in "services:" and the stack's account. ${byHand}`;
  }
  const unknown = sent.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    return `${head} The account has no service ${unknown.map((id) => JSON.stringify(id)).join(", ")} (it lists ${plural(known.size, "service")}): fix "services:" in the definition, or its services catalog, and run again; if the ids are right, check the stack's account.`;
  }
  return `${head} ${causes} Every service sent is among the account's ${plural(known.size, "service")}, so check the stack's account and API key. ${byHand}`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
