import { join } from "node:path";
import { ensureVenv, root } from "../../scripts/python-venv.mjs";

/**
 * moto's venv (the S3-compatible backend of R6 and team-backends), installed once before any
 * file runs: with two files at a time (CI's smallest size) both could otherwise install it at
 * once into one folder.
 */
export default async function setup(): Promise<void> {
  await ensureVenv("moto", join(root, "scripts", "moto", "requirements.txt"), { quiet: true });
}
