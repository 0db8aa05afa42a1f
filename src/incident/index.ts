/**
 * The incident's rules and every decision made with them, as pure functions of the declaration,
 * the last apply (`IncidentRecord`) and an observation; the layers above carry them out.
 */
export * from "./apply";
export * from "./changed";
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
export * from "./machine";
export * from "./messages";
export * from "./names";
export * from "./observation";
export * from "./page-change";
export * from "./read-back";
export * from "./record";
export * from "./removal";
export * from "./resource-type";
export * from "./state-text";
export * from "./taken";
export * from "./unanswered";
