import {
  declareIncidents,
  incidentOutputs,
  loadProgramDefinitions,
  programClient,
  readProgramConfig,
} from "./src/program";

/**
 * The incident-sync program, in Pulumi's "exported top-level function" form: reads the stack
 * config, loads the definitions directory, declares one incident per definition and returns
 * the read-backs as the stack outputs.
 */
export = async () => {
  const config = readProgramConfig();
  const definitions = await loadProgramDefinitions(config.definitionsDir);
  const incidents = declareIncidents(definitions);
  return {
    accountId: config.accountId,
    ...incidentOutputs(definitions, incidents, programClient(config)),
  };
};
