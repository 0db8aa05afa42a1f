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
 * Heartbeat states (no PASSING): RECEIVED, EARLY arrived; GRACE overdue; LATE, FAILING missed.
 * Answers read `state` as any string, through `heartbeatStateClass`.
 */
export const HeartbeatState = z.enum(["RECEIVED", "EARLY", "GRACE", "LATE", "FAILING"]);
export type HeartbeatState = z.infer<typeof HeartbeatState>;
