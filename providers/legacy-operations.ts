import type {
  ConfigureRequest,
  IncidentInputs,
  IncidentState,
  ProviderSession,
} from "./incident-operations";
import * as operations from "./incident-operations";
import { LEGACY_DEPRECATION } from "./legacy-deprecation";

/**
 * The operations as 0.1's stored provider calls them (`check` and `diff` without a session,
 * `update` without the old state), until an `up` stores the current provider.
 */

// This module is loaded only by a provider stored in 0.1 state: its loading is the one sign.
process.stderr.write(`${LEGACY_DEPRECATION}\n`);

// 0.1 configured its provider object but did not hand it to check and diff; one plugin
// process serves one stack, so the session configure filled is the one they need.
let configured: ProviderSession = {};

export async function configure(session: ProviderSession, request: ConfigureRequest) {
  configured = session;
  await operations.configure(session, request);
}

export const check = (olds: Partial<IncidentInputs>, news: Record<string, unknown>) =>
  operations.check(configured, olds, news);

export const diff = (olds: IncidentState, news: IncidentInputs) =>
  operations.diff(configured, olds, news);

export const create = operations.create;

/** 0.1 did not pass the old state: the incident is applied as on adoption. */
export const update = async (session: ProviderSession, news: IncidentInputs) => ({
  outs: (await operations.create(session, news)).outs,
});

export const read = operations.read;
export const remove = operations.remove;
