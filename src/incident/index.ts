/**
 * The incident's own rules, in one place: the mapping from a definition to what is applied and
 * sent, the diff, the live status, the reopen rule, convergence and the stack config. The
 * provider, the program, `plan` and `drift` all call these; nothing here imports them.
 */
export * from "./claim";
export * from "./convergence";
export * from "./declaration";
export * from "./diff";
export * from "./lifecycle";
export * from "./limits";
export * from "./live-status";
export * from "./observation";
export * from "./stack-config";
export * from "./state-text";
