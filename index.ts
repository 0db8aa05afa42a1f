import * as pulumi from "@pulumi/pulumi";
import { Incident } from "./providers/incident";

/**
 * The incident-sync program. Pulumi's "exported top-level function" form: the engine (or the
 * harness in src/engine, which runs this compiled file in-process) calls it once per run and
 * publishes what it returns as the stack outputs.
 */
export = async () => {
  const config = new pulumi.Config("incident-sync");
  const accountId = config.require("accountId");
  // One incident of the emulator's demo account, kept as the program's first real resource
  // until the definitions under incidents/ drive the program.
  const incident = new Incident("inc-db-maintenance", {
    incidentId: "inc-db-maintenance",
    name: "Scheduled database maintenance",
    severity: "MINOR",
    serviceIds: ["svc-db", "svc-api"],
    status: "MONITORING",
  });
  return {
    accountId,
    incidents: [{ incidentId: incident.incidentId, status: incident.lastUpdateStatus }],
  };
};
