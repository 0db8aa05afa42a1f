import path from "node:path";
import { describe, expect, it } from "vitest";
import { IncidentRequest } from "../../src/api/schemas";
import { loadDefinitions } from "../../src/definitions";
import { declarationOf, requestOf } from "../../src/incident";
import { definitionYaml, load } from "../definitions/helpers";

describe("mapping a definition to what is applied and sent", () => {
  it("turns every example definition into a request body the API schema accepts", async () => {
    const { definitions, problems } = await loadDefinitions(
      path.join(__dirname, "..", "..", "incidents"),
    );
    expect(problems).toEqual([]);
    expect(definitions.length).toBeGreaterThanOrEqual(4);
    for (const loaded of definitions) {
      const declaration = declarationOf(loaded.definition);
      const body = requestOf(declaration, { status: declaration.status });
      expect(IncidentRequest.safeParse(body).success).toBe(true);
    }
  });

  it("keeps service names and duration, and leaves out what only incident-sync reads", () => {
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
    const declaration = declarationOf(definitions[0]!.definition);
    expect(declaration).toEqual({
      incidentId: "inc-api-errors",
      name: "Elevated error rates on the Public API",
      severity: "MAJOR",
      status: "IDENTIFIED",
      services: [{ id: "svc-api" }, { id: "svc-web", name: "Web app" }],
      duration: 30,
      onRemove: "resolve",
    });
    expect(requestOf(declaration, { status: "IDENTIFIED" })).toEqual({
      name: "Elevated error rates on the Public API",
      severity: "MAJOR",
      services: [{ id: "svc-api" }, { id: "svc-web", name: "Web app" }],
      lastUpdateStatus: "IDENTIFIED",
      duration: 30,
    });
  });

  it("sends no status unless asked to, so a PUT can leave the live status alone", () => {
    const { definitions } = load({ "incidents/a.yaml": definitionYaml({}) });
    expect(requestOf(declarationOf(definitions[0]!.definition))).not.toHaveProperty(
      "lastUpdateStatus",
    );
  });

  it("passes an explicit null duration through, since the API allows it", () => {
    const { definitions } = load({ "incidents/a.yaml": definitionYaml({ duration: "null" }) });
    expect(requestOf(declarationOf(definitions[0]!.definition)).duration).toBeNull();
  });
});
