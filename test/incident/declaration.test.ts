import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { IncidentRequest } from "../../src/api/schemas";
import { loadDefinitionSources, loadDefinitions } from "../../src/definitions";
import {
  declarationOf,
  requestOf,
  servicesNamedFromCatalog,
  UnnamedServiceError,
} from "../../src/incident";
import { definitionYaml, load } from "../definitions/helpers";

const ACCOUNT = "acct-demo";

describe("mapping a definition to what is applied and sent", () => {
  it("turns every example definition into a request body the API schema accepts", async () => {
    const { definitions, problems } = await loadDefinitions(
      path.join(__dirname, "..", "..", "incidents"),
    );
    expect(problems).toEqual([]);
    expect(definitions.length).toBeGreaterThanOrEqual(4);
    for (const loaded of definitions) {
      const declaration = declarationOf(loaded.definition);
      const body = requestOf(declaration, { accountId: ACCOUNT, status: declaration.status });
      expect(IncidentRequest.safeParse(body).success).toBe(true);
      for (const service of body.services) {
        expect(service).toEqual({ id: service.id, name: expect.any(String), accountId: ACCOUNT });
      }
    }
  });

  it("keeps service names (inline or from the catalog) and duration, and leaves out what only incident-sync reads", () => {
    const { definitions, problems } = loadDefinitionSources([
      { path: "incidents/services.yaml", text: "svc-api: Public API\n", catalog: true },
      {
        path: "incidents/a.yaml",
        text: definitionYaml({
          resource: "api",
          services: "\n  - svc-api\n  - { id: svc-web, name: Web app }",
          duration: "30",
          evidence: "\n  checks: [chk-api]",
          onRemove: "resolve",
          reason: "Fixed upstream",
        }),
      },
    ]);
    expect(problems).toEqual([]);
    const declaration = declarationOf(definitions[0]!.definition);
    expect(declaration).toEqual({
      incidentId: "inc-api-errors",
      name: "Elevated error rates on the Public API",
      severity: "MAJOR",
      status: "IDENTIFIED",
      services: [
        { id: "svc-api", name: "Public API" },
        { id: "svc-web", name: "Web app" },
      ],
      duration: 30,
      onRemove: "resolve",
    });
    expect(requestOf(declaration, { accountId: ACCOUNT, status: "IDENTIFIED" })).toEqual({
      name: "Elevated error rates on the Public API",
      severity: "MAJOR",
      services: [
        { id: "svc-api", name: "Public API", accountId: ACCOUNT },
        { id: "svc-web", name: "Web app", accountId: ACCOUNT },
      ],
      lastUpdateStatus: "IDENTIFIED",
      duration: 30,
    });
  });

  it("sends no status unless asked to, so a PUT can leave the live status alone", () => {
    const { definitions } = load({ "incidents/a.yaml": definitionYaml({}) });
    expect(
      requestOf(declarationOf(definitions[0]!.definition), { accountId: ACCOUNT }),
    ).not.toHaveProperty("lastUpdateStatus");
  });

  it("passes an explicit null duration through, since the API allows it", () => {
    const { definitions } = load({ "incidents/a.yaml": definitionYaml({ duration: "null" }) });
    expect(
      requestOf(declarationOf(definitions[0]!.definition), { accountId: ACCOUNT }).duration,
    ).toBeNull();
  });
});

describe("a PUT body without a service's name cannot be built", () => {
  const declaration = {
    incidentId: "inc-api-errors",
    name: "Elevated error rates",
    severity: "MAJOR" as const,
    services: [
      { id: "svc-api", name: "Public API" },
      { id: "svc-web" },
      { id: "svc-db", name: "" },
    ],
  };

  it("throws UnnamedServiceError naming every unnamed service and where to name it", () => {
    let thrown: unknown;
    try {
      requestOf(declaration, { accountId: ACCOUNT, status: "RESOLVED" });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UnnamedServiceError);
    expect((thrown as Error).name).toBe("UnnamedServiceError");
    expect((thrown as Error).message).toMatchInlineSnapshot(
      `"incident inc-api-errors: the API requires a name for every service, and services "svc-web", "svc-db" have none. Write it in the definition (\`{ id, name }\`) or once in the services catalog (services.yaml in the definitions directory)."`,
    );
  });

  it("throws for a single unnamed service too, with or without a status", () => {
    const one = { ...declaration, services: [{ id: "svc-web" }] };
    expect(() => requestOf(one, { accountId: ACCOUNT })).toThrow(UnnamedServiceError);
    expect(() => requestOf(one, { accountId: ACCOUNT })).toThrowErrorMatchingInlineSnapshot(
      `[UnnamedServiceError: incident inc-api-errors: the API requires a name for every service, and service "svc-web" has none. Write it in the definition (\`{ id, name }\`) or once in the services catalog (services.yaml in the definitions directory).]`,
    );
  });
});

describe("naming the services of older state from the catalog", () => {
  it("names them from services.yaml, and names the catalog when it does not name one", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "incident-sync-catalog-"));
    try {
      await writeFile(path.join(dir, "services.yaml"), "svc-api: Public API\n");
      await expect(
        servicesNamedFromCatalog("inc-old", [{ id: "svc-api" }, { id: "svc-db", name: "DB" }], dir),
      ).resolves.toEqual([
        { id: "svc-api", name: "Public API" },
        { id: "svc-db", name: "DB" },
      ]);
      const missing = servicesNamedFromCatalog("inc-old", [{ id: "svc-web" }], dir);
      await expect(missing).rejects.toBeInstanceOf(UnnamedServiceError);
      await expect(missing).rejects.toThrow(
        `Its state was written by an older incident-sync, and the services catalog ${path.join(dir, "services.yaml")} names none of them.`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
