import { declareIncidentStack } from "./src/program";

/**
 * The incident-sync program, in Pulumi's "exported top-level function" form: reads the stack
 * config, loads the definitions directory, declares one incident per definition and returns
 * the read-backs as the stack outputs. A program that declares its incidents in code makes
 * the same call with `{ incidents: [...] }` (docs/provider-and-program.md, "Incidents in code").
 */
export = async () => (await declareIncidentStack()).outputs;
