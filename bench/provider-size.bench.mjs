// Provider size: what Pulumi stores of a dynamic provider in every resource's state, twice
// (the `__provider` input and output), serialized by the SDK's own serializer exactly as
// `pulumi.dynamic.Resource` does (`serializeFunction(() => provider, { isFactoryFunction })`).
// Measured next to two peers: the floor of a provider with the same seven methods, each empty
// (what the serializer writes for the methods alone), and the scale bench's no-op peer (create
// and update only). No engine runs; the figures are bytes, the same on every machine.
//
//   npm run build && npx node bench/provider-size.bench.mjs
import { createRequire } from "node:module";
import path from "node:path";
import { saveResult } from "./support/results.mjs";
import { NOOP_PROVIDER, repoRoot } from "./support/scale-project.mjs";

const require = createRequire(import.meta.url);
const pulumi = require("@pulumi/pulumi");
const { incidentProvider } = require(path.join(repoRoot, "dist", "providers", "incident.js"));

/** The seven methods an incident provider needs, each doing nothing: the serializer's floor. */
const emptySeven = {
  async configure() {},
  async check() {},
  async diff() {},
  async create() {},
  async update() {},
  async read() {},
  async delete() {},
};
/** The scale bench's no-op peer, from its own source (bench/support/scale-project.mjs). */
const noop = new Function(`return ${NOOP_PROVIDER};`)();

const bytesOf = async (provider) => {
  const serialized = await pulumi.runtime.serializeFunction(() => provider, {
    allowSecrets: false,
    isFactoryFunction: true,
  });
  return Buffer.byteLength(serialized.text);
};

const result = {
  ours: await bytesOf(incidentProvider),
  emptySevenMethods: await bytesOf(emptySeven),
  noopPeer: await bytesOf(noop),
};
console.log(
  [
    "| provider | serialized bytes | per incident (stored twice) |",
    "| --- | ---: | ---: |",
    ...Object.entries(result).map(([name, bytes]) => `| ${name} | ${bytes} | ${bytes * 2} |`),
  ].join("\n"),
);
await saveResult("provider-size", result);
