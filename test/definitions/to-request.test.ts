import path from "node:path";
import { describe, expect, it } from "vitest";
import { IncidentRequest } from "../../src/api/schemas";
import { loadDefinitions, toIncidentRequest } from "../../src/definitions";
import { definitionYaml, load } from "./helpers";

describe("mapping a definition to the API request", () => {
  it("turns every example definition into a request body the API schema accepts", async () => {
    const { definitions, problems } = await loadDefinitions(
      path.join(__dirname, "..", "..", "incidents"),
    );
    expect(problems).toEqual([]);
    expect(definitions.length).toBeGreaterThanOrEqual(4);
    for (const loaded of definitions) {
      expect(IncidentRequest.safeParse(toIncidentRequest(loaded.definition)).success).toBe(true);
    }
  });

  it("sends status as lastUpdateStatus, keeps service names and duration, and leaves out what only incident-sync reads", () => {
    const { definitions } = load({
      "incidents/a.yaml": definitionYaml({
        resource: "api",
        services: "\n  - svc-api\n  - { id: svc-web, name: Web app }",
        duration: "30",
        evidence: "\n  checks: [chk-api]",
        onRemove: "resolve",
        reason: "Fixed upstream",
      }),
    });
    expect(toIncidentRequest(definitions[0]!.definition)).toEqual({
      name: "Elevated error rates on the Public API",
      severity: "MAJOR",
      services: [{ id: "svc-api" }, { id: "svc-web", name: "Web app" }],
      lastUpdateStatus: "IDENTIFIED",
      duration: 30,
    });
  });

  it("passes an explicit null duration through, since the API allows it", () => {
    const { definitions } = load({ "incidents/a.yaml": definitionYaml({ duration: "null" }) });
    expect(toIncidentRequest(definitions[0]!.definition).duration).toBeNull();
  });
});
