/**
 * The type of an incident's resource: a dynamic resource, run by the Node.js language host's
 * provider plugin (`pulumi-nodejs`). The state, the engine's events and `pulumi import` name
 * an incident by it.
 */
export const INCIDENT_TYPE = "pulumi-nodejs:dynamic/incident-sync:Incident";
