import { declareIncidentStack } from "./src/program";

/**
 * The incident-sync program: the stack config, the definitions, one incident each, the
 * read-backs as outputs. In code: the same call with `{ incidents }` (docs/provider-and-program.md).
 */
export = async () => (await declareIncidentStack()).outputs;
