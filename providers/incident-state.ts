import type * as pulumi from "@pulumi/pulumi";
import type { IncidentInputs, IncidentRecord } from "../src/incident";
import type { ProviderSession } from "./provider-session";

export type { IncidentInputs } from "../src/incident";
/** The state of an applied incident: `IncidentRecord`, internal to the package. */
export type IncidentState = IncidentRecord;

/** The provider as the dynamic provider plugin calls it, and the session it keeps. */
export type IncidentProvider = pulumi.dynamic.ResourceProvider<IncidentInputs, IncidentRecord> &
  ProviderSession;
