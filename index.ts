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
  const definitions = await loadProgramDefinitions(config.definitionsDir, config.projectDir);
  const options = {
    client: programClient(config),
    settings: config.settings,
    projectDir: config.projectDir,
    phase: config.phase,
  };
  const incidents = declareIncidents(definitions, options);
  return {
    accountId: config.settings.accountId,
    ...incidentOutputs(incidents, options),
  };
};
