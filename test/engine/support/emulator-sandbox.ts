import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import {
  type RunningEmulator,
  type StartEmulatorOptions,
  startEmulator,
} from "../../../src/emulator";

/** A scratch directory holding an emulator's data file, and a read-only view of it. */
export interface EmulatorSandbox {
  /** The scratch directory: state, projects and homes of the test go here too. */
  readonly root: string;
  readonly emulator: RunningEmulator;
  /** The emulator's data, read directly: what the API really holds, for assertions. */
  readonly db: DatabaseSync;
  /** Closes both and removes the directory. */
  close(): Promise<void>;
}

/** Starts an emulator on a free port of loopback, its data in a new scratch directory. */
export async function startEmulatorSandbox(
  name: string,
  seed: StartEmulatorOptions["seed"],
  options: Pick<StartEmulatorOptions, "putStatus"> = {},
): Promise<EmulatorSandbox> {
  const root = mkdtempSync(join(tmpdir(), `incident-sync-${name}-`));
  const dataFile = join(root, "emulator.db");
  const emulator = await startEmulator({ ...options, port: 0, seed, dataFile });
  const db = new DatabaseSync(dataFile, { readOnly: true });
  return {
    root,
    emulator,
    db,
    async close() {
      db.close();
      await emulator.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
