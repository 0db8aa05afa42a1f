// Provider size: what every resource's state stores of a dynamic provider, twice (the
// `__provider` input and output). Ours is the text `providers/incident.ts` writes
// (PROVIDER_SOURCE), which loads the operations by package name. Next to it, what the SDK's
// serializer writes for a provider object, as `pulumi.dynamic.Resource` does
// (`serializeFunction(() => provider, { allowSecrets: true })`): the provider of seven one-line
// methods that incident-sync 0.2.0 stored, its floor (the same seven methods, each empty) and
// the scale bench's no-op peer (create and update only). No engine runs; the figures are
// bytes, the same on every machine.
//
//   npm run build && npx node bench/provider-size.bench.mjs
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { saveResult } from "./support/results.mjs";
import { NOOP_PROVIDER, repoRoot } from "./support/scale-project.mjs";

const require = createRequire(import.meta.url);
const pulumi = require("@pulumi/pulumi");
const { PROVIDER_SOURCE } = require(path.join(repoRoot, "dist", "providers", "incident.js"));

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

const serializedBytes = async (provider) => {
  const serialized = await pulumi.runtime.serializeFunction(() => provider, {
    allowSecrets: true,
  });
  return Buffer.byteLength(serialized.text);
};

const result = {
  ours: Buffer.byteLength(PROVIDER_SOURCE),
  serializedBy020: Buffer.byteLength(
    readFileSync(
      path.join(repoRoot, "test", "providers", "fixtures", "stored-provider-0.2.0.txt"),
      "utf8",
    ),
  ),
  serializedEmptySevenMethods: await serializedBytes(emptySeven),
  serializedNoopPeer: await serializedBytes(noop),
};
console.log(
  [
    "| provider | stored bytes | per incident (stored twice) |",
    "| --- | ---: | ---: |",
    ...Object.entries(result).map(([name, bytes]) => `| ${name} | ${bytes} | ${bytes * 2} |`),
  ].join("\n"),
);
await saveResult("provider-size", result);
