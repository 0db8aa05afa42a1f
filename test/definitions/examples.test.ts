import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { loadDefinitions } from "../../src/definitions";

const root = path.join(__dirname, "..", "..");

/** The parts of the emulator's demo seed the example definitions must agree with. */
const Seed = z.object({
  accounts: z.array(
    z.object({
      id: z.string(),
      services: z.array(z.object({ id: z.string(), name: z.string() })),
      incidents: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          severity: z.string(),
          services: z.array(z.string()),
          duration: z.number().optional(),
          updates: z.array(z.object({ status: z.string() })),
        }),
      ),
      heartbeats: z.array(z.object({ checkId: z.string() })),
      checkResults: z.array(z.object({ checkId: z.string() })),
    }),
  ),
});

describe("the example definitions in incidents/", () => {
  it("describe the demo seed's incidents as they are, so a fresh demo shows no drift, and open one more", async () => {
    const seed = Seed.parse(
      parse(readFileSync(path.join(root, "examples/seed/demo.yaml"), "utf8")),
    );
    const account = seed.accounts.find((candidate) => candidate.id === "acct-demo");
    expect(account).toBeDefined();
    const { definitions, problems } = await loadDefinitions(path.join(root, "incidents"));
    expect(problems).toEqual([]);
    const adopted = definitions.filter((loaded) => loaded.definition.id !== undefined);
    expect(adopted.map((loaded) => loaded.definition.id).sort()).toEqual(
      account?.incidents.map((incident) => incident.id).sort(),
    );
    // The demo opens one incident of its own, on services of the demo account, with a message.
    const opened = definitions.filter((loaded) => loaded.definition.id === undefined);
    expect(opened.map((loaded) => loaded.definition.resource)).toEqual(["card-payments-declined"]);
    for (const { definition } of opened) {
      expect(definition.updates?.length).toBeGreaterThan(0);
      for (const service of definition.services) {
        expect(account?.services.map((known) => known.id)).toContain(service.id);
      }
    }
    for (const { definition } of adopted) {
      const incident = account?.incidents.find((candidate) => candidate.id === definition.id);
      expect(
        {
          name: definition.name,
          severity: definition.severity,
          status: definition.status,
          services: definition.services.map((service) => service.id),
          duration: definition.duration,
        },
        definition.id,
      ).toEqual({
        name: incident?.name,
        severity: incident?.severity,
        status: incident?.updates.at(-1)?.status,
        services: incident?.services,
        duration: incident?.duration,
      });
      for (const service of definition.services) {
        if (service.name === undefined) continue;
        expect(account?.services).toContainEqual({ id: service.id, name: service.name });
      }
      const heartbeats = account?.heartbeats.map((heartbeat) => heartbeat.checkId);
      const checks = account?.checkResults.map((result) => result.checkId);
      for (const id of definition.evidence?.heartbeats ?? []) expect(heartbeats).toContain(id);
      for (const id of definition.evidence?.checks ?? []) expect(checks).toContain(id);
    }
  });
});
