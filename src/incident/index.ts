/**
 * The incident's own rules, in one place, and every decision made with them: given the
 * declaration, the last apply (`IncidentRecord`) and an observation of the service, these
 * pure functions decide whether to apply, which requests to send and in what order, what a
 * removal does, the live status and the drift. The provider, the program, `plan`, `drift` and
 * the reports carry them out; nothing here imports them. The settings that steer them (the
 * stack config among them) live in src/settings.
 */
export * from "./apply";
export * from "./claim";
export * from "./convergence";
export * from "./creation";
export * from "./declaration";
export * from "./diff";
export * from "./drift";
export * from "./entries";
export * from "./entry-plan";
export * from "./inputs";
export * from "./lifecycle";
export * from "./live-status";
export * from "./messages";
export * from "./observation";
export * from "./read-back";
export * from "./record";
export * from "./removal";
export * from "./resource-type";
export * from "./state-text";
