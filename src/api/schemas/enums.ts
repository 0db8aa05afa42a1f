import { z } from "zod";

/** Incident severity (spec 3). Not a lifecycle: any value may follow any other. */
export const Severity = z.enum(["CRITICAL", "MAJOR", "MEDIUM", "MINOR"]);
export type Severity = z.infer<typeof Severity>;

/** Incident status, used by `lastUpdateStatus` and by an update's `status` (spec 3). */
export const IncidentStatus = z.enum(["INVESTIGATING", "IDENTIFIED", "MONITORING", "RESOLVED"]);
export type IncidentStatus = z.infer<typeof IncidentStatus>;

/** Severities from most to least severe; a move to a higher index is a downgrade. */
export const SEVERITY_ORDER: readonly Severity[] = Severity.options;

/**
 * Heartbeat event states (the service's reference). There is no PASSING.
 * - `RECEIVED`: a ping arrived on time.
 * - `EARLY`: a ping arrived earlier than expected.
 * - `GRACE`: the ping is overdue, but still within the grace period.
 * - `LATE`, `FAILING`: the ping was missed, or the job reported failing.
 *
 * Responses read `state` as any string: `heartbeatStateClass` (heartbeat.ts) says what a
 * value means, and a state the service adds later is shown as it is and counted as unknown.
 */
export const HeartbeatState = z.enum(["RECEIVED", "EARLY", "GRACE", "LATE", "FAILING"]);
export type HeartbeatState = z.infer<typeof HeartbeatState>;
