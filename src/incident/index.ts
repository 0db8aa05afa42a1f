/**
 * The incident's own rules, in one place: the mapping from a definition to what is applied and
 * sent, the diff, the live status, the reopen rule, convergence, the entries of `updates`
 * (what is posted, edited, refused) and opening an incident once. The provider, the
 * program, `plan` and `drift` all call these; nothing here imports them. The settings that
 * steer them (the stack config among them) live in src/settings.
 */
export * from "./claim";
export * from "./convergence";
export * from "./creation";
export * from "./declaration";
export * from "./diff";
export * from "./entries";
export * from "./entry-plan";
export * from "./lifecycle";
export * from "./live-status";
export * from "./observation";
export * from "./resource-type";
export * from "./state-text";
export * from "./taken";
