// A project of N incidents for the scale benchmark and the interruption tests: an emulator
// seed with the incidents (and, for a share of them, heartbeats and checks as evidence), and a
// Pulumi project that installs incident-sync as a dependency (node_modules links to this
// checkout, built), as a team's own repository would. Plain ESM, so benchmarks and tests share it.
import { mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);

export const repoRoot = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const SCALE_ACCOUNT = "acct-scale";
export const SCALE_API_KEY = "scale-key-0123456789";

/**
 * The stack config of a scale stack against `baseUrl`. The rate limit is raised out of the way:
 * the benchmarks measure the engine and the API use, not the client's own rate limit.
 * `concurrency`, when given, sets the calls in flight per client (else the default).
 * @param {string} baseUrl
 * @param {{ concurrency?: number }} [options]
 */
export const scaleStackConfig = (baseUrl, { concurrency } = {}) => ({
  "incident-sync:baseUrl": { value: baseUrl },
  "incident-sync:accountId": { value: SCALE_ACCOUNT },
  "incident-sync:apiKey": { value: SCALE_API_KEY, secret: true },
  "incident-sync:rateLimit": { value: "60000" },
  ...(concurrency === undefined
    ? {}
    : { "incident-sync:concurrency": { value: String(concurrency) } }),
});

/** `inc-scale-0007`. @param {number} index */
export const scaleId = (index) => `inc-scale-${String(index).padStart(4, "0")}`;

/** Heartbeats and checks the evidence draws from: one each per 100 incidents, as a team has tens of monitors, not one per incident. @param {number} incidents */
const monitorsFor = (incidents) => Math.max(1, Math.round(incidents / 100));

/**
 * The emulator seed: `incidents` incidents (all INVESTIGATING, severity MINOR), and the
 * heartbeats and checks that a tenth of the definitions list as evidence. With `matching`,
 * each incident shows what its definition says already (name, severity, services), as after
 * `incident-sync import`.
 * @param {number} incidents
 * @param {number} [evidenceShare]
 * @param {{ matching?: boolean }} [options]
 * @returns {import("../../src/emulator/seed-schema.js").SeedFile}
 */
export function scaleSeed(incidents, evidenceShare = 0.1, { matching = false } = {}) {
  const ids = Array.from({ length: incidents }, (_, index) => scaleId(index));
  const monitors = evidenceShare > 0 ? monitorsFor(incidents) : 0;
  return {
    accounts: [
      {
        id: SCALE_ACCOUNT,
        apiKeys: [SCALE_API_KEY],
        services: [
          { id: "svc-scale-a", name: "Scale A" },
          { id: "svc-scale-b", name: "Scale B" },
        ],
        incidents: ids.map((id) => ({
          id,
          name: matching ? `Scale incident ${id}` : `Seeded ${id}`,
          severity: /** @type {"MAJOR" | "MINOR"} */ (matching ? "MAJOR" : "MINOR"),
          services: matching ? ["svc-scale-a", "svc-scale-b"] : ["svc-scale-a"],
          created_at: "-2h",
          updates: [
            {
              description: "Opened",
              status: /** @type {const} */ ("INVESTIGATING"),
              created_at: "-2h",
            },
          ],
        })),
        heartbeats: Array.from({ length: monitors }, (_, index) => ({
          checkId: `hb-scale-${index}`,
          pings: [{ ok: true, at: "-1h" }],
        })),
        checkResults: Array.from({ length: monitors }, (_, index) => ({
          checkId: `chk-scale-${index}`,
          error: `Timeout of 5000ms exceeded for https://scale.example.com/${index}`,
          at: "-30m",
        })),
      },
    ],
  };
}

/**
 * The definitions of the seed's incidents, one YAML document each in one file; `variant`
 * changes the name of the first `changed` incidents, so an `up` has exactly that much to do.
 * @param {number} incidents
 * @param {ScaleOptions} [options]
 */
export function scaleDefinitions(incidents, options) {
  return scaleDocuments(incidents, options).join("---\n");
}

/**
 * `updates`: each definition tells its status by the seed's one update instead of `status`.
 * @typedef {{ variant?: number; changed?: number; evidenceShare?: number; status?: string; updates?: boolean }} ScaleOptions
 */

/**
 * One YAML document per incident, as `scaleDefinitions` joins them.
 * @param {number} incidents
 * @param {ScaleOptions} [options]
 */
function scaleDocuments(
  incidents,
  { variant = 0, changed = 0, evidenceShare = 0.1, status = "INVESTIGATING", updates = false } = {},
) {
  const withEvidence = Math.round(incidents * evidenceShare);
  const every =
    withEvidence === 0 ? Number.POSITIVE_INFINITY : Math.floor(incidents / withEvidence);
  return Array.from({ length: incidents }, (_, index) => {
    const id = scaleId(index);
    const name =
      index < changed ? `Scale incident ${id}, version ${variant}` : `Scale incident ${id}`;
    const monitor = (index / every) % monitorsFor(incidents);
    const evidence =
      index % every === 0 && index / every < withEvidence
        ? `evidence:\n  heartbeats: [hb-scale-${monitor}]\n  checks: [chk-scale-${monitor}]\n`
        : "";
    const told = updates
      ? "updates:\n  - status: INVESTIGATING\n    message: Opened\n"
      : `status: ${status}\n`;
    return `id: ${id}\nname: ${name}\nseverity: MAJOR\n${told}services: [svc-scale-a, svc-scale-b]\n${evidence}`;
  });
}

/**
 * A Pulumi project at `dir` whose program is incident-sync's (`incident-sync/program`), with
 * incident-sync and its dependencies in node_modules as `npm install incident-sync` leaves
 * them (links into this checkout). `program` replaces index.js, e.g. for the no-op peer.
 * @param {string} dir
 * @param {{ name?: string; program?: string }} [options]
 */
export function writeScaleProject(dir, { name = "incident-sync-scale", program } = {}) {
  mkdirSync(path.join(dir, "incidents"), { recursive: true });
  mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  // As the project's own Pulumi.yaml: plain JavaScript, no ts-node (whose stack-trace hook
  // slows every promise the Pulumi SDK makes).
  writeFileSync(
    path.join(dir, "Pulumi.yaml"),
    `name: ${name}\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: index.js\n`,
  );
  // A project's own package.json, as `npm init` leaves it: without one the language host warns
  // on every run that it uses the program's folder as the project root.
  writeFileSync(
    path.join(dir, "package.json"),
    `${JSON.stringify({ name, private: true, main: "index.js" }, null, 2)}\n`,
  );
  writeFileSync(
    path.join(dir, "index.js"),
    program ?? 'module.exports = require("incident-sync/program");\n',
  );
  symlinkSync(repoRoot, path.join(dir, "node_modules", "incident-sync"), "dir");
  for (const entry of readdirSync(path.join(repoRoot, "node_modules"))) {
    if (entry.startsWith(".")) continue;
    symlinkSync(path.join(repoRoot, "node_modules", entry), path.join(dir, "node_modules", entry));
  }
  return dir;
}

/**
 * Writes the definitions of `scaleDefinitions` into the project: `incidents/scale.yaml`, or,
 * past the most documents the loader reads from a file (`MAX_DOCUMENTS`), `scale-01.yaml`,
 * `scale-02.yaml`, … of that many each.
 * @param {string} dir
 * @param {number} incidents
 * @param {ScaleOptions} [options]
 */
export function writeScaleDefinitions(dir, incidents, options) {
  const folder = path.join(dir, "incidents");
  for (const file of readdirSync(folder)) {
    if (/^scale(-\d+)?\.yaml$/.test(file)) rmSync(path.join(folder, file));
  }
  // As many incidents per file as the loader reads from one (src/definitions/limits.ts, built),
  // as a team past that many splits them.
  const { MAX_DOCUMENTS: perFile } = require(
    path.join(repoRoot, "dist", "src", "definitions", "limits.js"),
  );
  const documents = scaleDocuments(incidents, options);
  if (documents.length <= perFile) {
    writeFileSync(path.join(folder, "scale.yaml"), documents.join("---\n"));
  } else {
    for (let start = 0; start < documents.length; start += perFile) {
      const part = String(start / perFile + 1).padStart(2, "0");
      writeFileSync(
        path.join(folder, `scale-${part}.yaml`),
        documents.slice(start, start + perFile).join("---\n"),
      );
    }
  }
  // The services catalog names the two services the definitions list by id, as the seed does.
  writeFileSync(
    path.join(dir, "incidents", "services.yaml"),
    "svc-scale-a: Scale A\nsvc-scale-b: Scale B\n",
  );
}

/**
 * The no-op peer's dynamic provider, as source: it returns at once and does nothing. The peer's
 * program declares it, and bench/provider-size.bench.mjs measures what it costs in the state.
 */
export const NOOP_PROVIDER = `{
  async create(inputs) { return { id: inputs.incidentId, outs: inputs }; },
  async update(_id, _olds, news) { return { outs: news }; },
}`;

/** The no-op peer's program: the same inputs, from the same definitions, with a provider that does nothing. */
export const NOOP_PROGRAM = `const pulumi = require("@pulumi/pulumi");
const { join, dirname } = require("node:path");
const { loadDefinitions } = require("incident-sync");
// The incident's own mapping is internal to the package; the bench reaches it by path.
const { declarationOf } = require(join(dirname(require.resolve("incident-sync/package.json")), "dist/src/incident"));
const provider = ${NOOP_PROVIDER};
module.exports = async () => {
  const dir = join(pulumi.runtime.getRootDirectory() || process.cwd(), "incidents");
  const { definitions, problems } = await loadDefinitions(dir);
  if (problems.length > 0) throw new Error(problems.map((problem) => problem.message).join("\\n"));
  for (const { definition } of definitions) {
    new pulumi.dynamic.Resource(provider, definition.resource, declarationOf(definition));
  }
};
`;
