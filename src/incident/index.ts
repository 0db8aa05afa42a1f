/**
 * The incident's own rules, in one place: the mapping from a definition to what is applied and
 * sent, the diff, the live status, the reopen rule and convergence. The provider, the
 * program, `plan` and `drift` all call these; nothing here imports them. The settings that
 * steer them (the stack config among them) live in src/settings.
 */
export * from "./claim";
export * from "./convergence";
export * from "./declaration";
export * from "./diff";
export * from "./lifecycle";
export * from "./live-status";
export * from "./observation";
export * from "./resource-type";
export * from "./state-text";
