import { createHash } from "node:crypto";

/** The emulator's namespace for name-based ids (a fixed random UUID). */
const NAMESPACE = Buffer.from("3d0f6a52c1e84a4e9a7b5c2f8e1d6b40", "hex");

/**
 * A name-based UUID, version 5 (RFC 4122 section 4.3: SHA-1 of a namespace and the name),
 * in the emulator's namespace. The same name always gives the same id, so ids of events
 * the emulator derives again on every read stay the same between reads and restarts.
 * @example nameUuid("acct-demo/hb-nightly-backup/ping/5")
 */
export function nameUuid(name: string, namespace: Buffer = NAMESPACE): string {
  const bytes = createHash("sha1").update(namespace).update(name, "utf8").digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50; // version 5
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // the RFC 4122 variant
  const hex = bytes.toString("hex");
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    hex.slice(12, 16),
    hex.slice(16, 20),
    hex.slice(20),
  ].join("-");
}
