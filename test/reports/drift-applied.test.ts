import { writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  AppliedFileError,
  readAppliedFile,
  readAppliedInput,
} from "../../src/reports/drift/applied";
import { tempDir } from "./support/harness";

const INCIDENT = "pulumi-nodejs:dynamic/incident-sync:Incident";

/** A resource of a `pulumi stack export`, as the engine writes it. */
const resource = (type: string, outputs: Record<string, unknown>, extra: object = {}) => ({
  urn: `urn:pulumi:prod::incident-sync::${type}::${String(outputs.incidentId ?? "prod")}`,
  custom: true,
  type,
  outputs,
  ...extra,
});

/** An `Incident`'s state: what the provider writes (trimmed to what matters here). */
const incident = (incidentId: string, status: string, appliedAt: string) =>
  resource(INCIDENT, {
    __provider: "exports.handler = …",
    incidentId,
    name: "An incident",
    status,
    appliedAt,
    appliedUpdates: [],
  });

let dir: string;
const write = async (name: string, content: unknown) => {
  const file = path.join(dir, name);
  await writeFile(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
};
const failure = async (file: string) => {
  const error = await readAppliedFile(file).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(AppliedFileError);
  return (error as Error).message.replaceAll(dir, "<dir>");
};

beforeAll(async () => {
  dir = await tempDir("drift-applied");
});

describe("drift --applied", () => {
  it("reads what each last apply set from the stack output incidents", async () => {
    const file = await write("applied.json", {
      "inc-api": {
        file: "incidents/api.yaml",
        declared: { status: "MONITORING" },
        applied: { status: "MONITORING", at: "2026-01-01T10:00:00.000Z" },
        live: { status: "MONITORING", source: "applied", since: null },
      },
    });
    expect(await readAppliedFile(file)).toEqual(
      new Map([["inc-api", { status: "MONITORING", at: "2026-01-01T10:00:00.000Z" }]]),
    );
  });

  it("reads the same from pulumi stack export: every Incident's state, skipping claimed ones, those waiting to be deleted and other resources", async () => {
    const file = await write("state.json", {
      version: 3,
      deployment: {
        manifest: { time: "2026-01-01T10:00:01Z" },
        resources: [
          resource("pulumi:pulumi:Stack", { summary: { outputs: "summary" } }, { custom: false }),
          resource("pulumi:providers:pulumi-nodejs", { "incident-sync:accountId": "acct-1" }),
          incident("inc-api", "MONITORING", "2026-01-01T10:00:00.000Z"),
          incident("inc-db", "RESOLVED", "2025-12-24T08:00:00.000Z"),
          // Claimed by `incident-sync up`, not yet applied.
          incident("inc-new", "INVESTIGATING", ""),
          // The old resource of a replacement, deleted once the new one is applied.
          { ...incident("inc-db", "INVESTIGATING", "2025-12-01T08:00:00.000Z"), delete: true },
        ],
      },
    });
    expect(await readAppliedFile(file)).toEqual(
      new Map([
        ["inc-api", { status: "MONITORING", at: "2026-01-01T10:00:00.000Z", resource: "inc-api" }],
        ["inc-db", { status: "RESOLVED", at: "2025-12-24T08:00:00.000Z", resource: "inc-db" }],
      ]),
    );
  });

  it("reads from a stack export the updates each apply posted, the ids of incidents up opened and those claimed, not yet opened", async () => {
    const file = await write("posted.json", {
      version: 3,
      deployment: {
        resources: [
          resource(INCIDENT, {
            incidentId: "inc-opened",
            status: "IDENTIFIED",
            appliedAt: "2026-01-01T10:00:00.000Z",
            updateIds: ["upd-1", "upd-2"],
            appliedUpdates: [{ id: "upd-2" }, { id: "upd-3" }, { id: null }],
          }),
          {
            ...resource(INCIDENT, { incidentId: "", status: "INVESTIGATING", appliedAt: "" }),
            urn: `urn:pulumi:prod::incident-sync::${INCIDENT}::card-payments`,
          },
        ],
      },
    });
    const records = await readAppliedInput(file);
    expect(records.posted).toEqual(new Map([["inc-opened", new Set(["upd-1", "upd-2", "upd-3"])]]));
    expect(records.ids).toEqual(new Map([["inc-opened", "inc-opened"]]));
    expect(records.unopened).toEqual(["card-payments"]);
    expect([...records.applied.keys()]).toEqual(["inc-opened"]);
  });

  it("reads an empty stack's export as no last apply", async () => {
    const file = await write("empty.json", { version: 3, deployment: { manifest: {} } });
    expect(await readAppliedFile(file)).toEqual(new Map());
  });

  it("says how to write the file when it cannot be read or is not JSON", async () => {
    expect(await failure(path.join(dir, "missing.json"))).toMatchInlineSnapshot(
      `"--applied <dir>/missing.json cannot be read (ENOENT: no such file or directory, open '<dir>/missing.json'); write it with \`pulumi stack export > <dir>/missing.json\`, or with \`pulumi stack output incidents --json > <dir>/missing.json\` from a stack with \`incident-sync:outputs full\`."`,
    );
    expect(
      await failure(await write("text.json", "Current stack outputs (6):")),
    ).toMatchInlineSnapshot(
      `"--applied <dir>/text.json is not JSON; write it with \`pulumi stack export > <dir>/text.json\`, or with \`pulumi stack output incidents --json > <dir>/text.json\` from a stack with \`incident-sync:outputs full\`."`,
    );
  });

  it("says the stack's outputs have no incidents when given those of a stack with outputs summary", async () => {
    const file = await write("outputs.json", {
      accountId: "acct-1",
      drift: [],
      summary: { outputs: "summary", incidents: 1 },
    });
    expect(await failure(file)).toMatchInlineSnapshot(
      `"--applied <dir>/outputs.json holds the stack's outputs, which have no \`incidents\` (the stack exports \`incident-sync:outputs summary\`); write it with \`pulumi stack export > <dir>/outputs.json\`, or with \`pulumi stack output incidents --json > <dir>/outputs.json\` from a stack with \`incident-sync:outputs full\`."`,
    );
  });

  it("names what is wrong with a file of neither form, or an Incident's state it cannot read", async () => {
    const other = await write("other.json", { "inc-api": { status: "MONITORING" } });
    expect(await failure(other)).toMatchInlineSnapshot(
      `"--applied <dir>/other.json is neither a \`pulumi stack export\` nor the stack output \`incidents\` (✖ Invalid input: expected object, received undefined;   → at ["inc-api"].applied); write it with \`pulumi stack export > <dir>/other.json\`, or with \`pulumi stack output incidents --json > <dir>/other.json\` from a stack with \`incident-sync:outputs full\`."`,
    );
    const odd = await write("odd.json", {
      version: 3,
      deployment: { resources: [incident("inc-api", "PAUSED", "2026-01-01T10:00:00.000Z")] },
    });
    expect(await failure(odd)).toMatchInlineSnapshot(
      `"--applied <dir>/odd.json: the state of urn:pulumi:prod::incident-sync::pulumi-nodejs:dynamic/incident-sync:Incident::inc-api is not one incident-sync wrote (✖ Invalid option: expected one of "INVESTIGATING"|"IDENTIFIED"|"MONITORING"|"RESOLVED";   → at status); write it with \`pulumi stack export > <dir>/odd.json\`, or with \`pulumi stack output incidents --json > <dir>/odd.json\` from a stack with \`incident-sync:outputs full\`."`,
    );
  });
});
