import { randomBytes } from "node:crypto";
import type { Hono } from "hono";
import { createApp } from "./app";
import {
  type Behaviour,
  behaviourFromEnvironment,
  DEFAULT_BEHAVIOUR,
  type PutStatus,
  putStatusFromEnvironment,
  type ReferenceOperations,
} from "./behaviour";
import { EmulatorClock } from "./clock";
import { createControl, type EmulatorControl } from "./control";
import { openDatabase, transaction } from "./database";
import { FaultInjector, type Faults } from "./faults";
import { RequestCounter } from "./request-stats";
import { applySeed, loadSeedFile, parseSeed } from "./seed";
import type { ParsedSeedFile, SeedFile } from "./seed-schema";
import { createStores } from "./store";

export interface EmulatorOptions {
  /**
   * SQLite file that keeps the data across restarts (WAL, synchronous=FULL).
   * @default undefined: a fresh in-memory database
   */
  dataFile?: string;
  /**
   * Seed data: an object, a YAML/JSON file path, or `"demo"` for examples/seed/demo.yaml.
   * Applied only to a database that has never been seeded, so restarting on a data file
   * does not duplicate it.
   */
  seed?: SeedFile | string;
  /**
   * Bearer token of the control API (`/_control`).
   * @default a random token, readable as `emulator.adminToken`
   */
  adminToken?: string;
  /** Faults of the public API at start. @default none */
  faults?: Faults;
  /**
   * What a PUT does with `lastUpdateStatus` (the service does not document it; see behaviour.ts).
   * @default INCIDENT_SYNC_EMULATOR_PUT_STATUS, else the seed's `behaviour.putStatus`, else `posts-update`
   */
  putStatus?: PutStatus;
  /**
   * Whether the incident operations beyond the spec's excerpt exist (see behaviour.ts).
   * @default the seed's `behaviour.referenceOperations`, else `available`
   */
  referenceOperations?: ReferenceOperations;
  /**
   * Every behaviour where the service's is unknown (see behaviour.ts); `putStatus` and
   * `referenceOperations` above win over theirs here.
   * @default INCIDENT_SYNC_EMULATOR_BEHAVIOUR (JSON), else the seed's `behaviour`, else `DEFAULT_BEHAVIOUR`
   */
  behaviour?: Partial<Behaviour>;
  /**
   * The real clock; tests pin it. The emulator's own runs from it, moved by `POST /_control/clock`.
   * @default () => new Date()
   */
  now?: () => Date;
  /** Random source of the faults (0 ≤ x < 1). @default Math.random */
  random?: () => number;
  /** Receives unexpected errors; responses only say "internal error". @default log to stderr */
  onInternalError?: (error: unknown) => void;
}

export interface Emulator {
  /** The app; `app.request(path, init)` runs it in-process, `app.fetch` serves it. */
  app: Hono;
  /** Events that happen in the monitoring service itself, for tests and demos. */
  control: EmulatorControl;
  /** The control API's Bearer token. */
  adminToken: string;
  /** The validated seed given at creation, if any (even when it was not re-applied). */
  seed: ParsedSeedFile | undefined;
  /** Closes the database. */
  close(): void;
}

/** The maintenances a seed's windows get: as the behaviour the emulator will have says. */
function seedOccurrences(seed: ParsedSeedFile, chosen: Partial<Behaviour> | undefined) {
  return (
    chosen?.maintenanceOccurrences ??
    behaviourFromEnvironment().maintenanceOccurrences ??
    seed.behaviour?.maintenanceOccurrences ??
    DEFAULT_BEHAVIOUR.maintenanceOccurrences
  );
}

function readSeed(seed: SeedFile | string | undefined): ParsedSeedFile | undefined {
  if (seed === undefined) return undefined;
  return typeof seed === "string" ? loadSeedFile(seed) : parseSeed(seed, "the seed option");
}

/** Builds an emulator; opens no port (see `startEmulator` for a server). */
export function createEmulator(options: EmulatorOptions = {}): Emulator {
  const clock = new EmulatorClock(options.now ?? (() => new Date()));
  const now = clock.now;
  const seed = readSeed(options.seed);
  const db = openDatabase(options.dataFile);
  try {
    const stores = createStores(db);
    if (seed !== undefined) {
      transaction(db, () => {
        const seeded = db.prepare("SELECT value FROM meta WHERE key = 'seeded_at'").get();
        if (seeded !== undefined) return;
        applySeed(stores, seed, now().getTime(), seedOccurrences(seed, options.behaviour));
        db.prepare("INSERT INTO meta (key, value) VALUES ('seeded_at', ?)").run(
          now().toISOString(),
        );
      });
    }
    const chosen: Behaviour = {
      ...DEFAULT_BEHAVIOUR,
      ...seed?.behaviour,
      ...behaviourFromEnvironment(),
      ...options.behaviour,
    };
    const behaviour: Behaviour = {
      ...chosen,
      putStatus:
        options.putStatus ??
        options.behaviour?.putStatus ??
        putStatusFromEnvironment(chosen.putStatus),
      ...(options.referenceOperations ? { referenceOperations: options.referenceOperations } : {}),
    };
    const faults = new FaultInjector(options.random);
    if (options.faults !== undefined) faults.set(options.faults);
    const requests = new RequestCounter(now);
    const control = createControl(stores, faults, requests, clock, behaviour);
    const adminToken = options.adminToken ?? randomBytes(18).toString("base64url");
    const app = createApp({
      stores,
      control,
      faults,
      requests,
      adminToken,
      now,
      onInternalError:
        options.onInternalError ??
        ((error) => {
          process.stderr.write(
            `emulator: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
          );
        }),
    });
    let closed = false;
    return {
      app,
      control,
      adminToken,
      seed,
      close() {
        if (closed) return;
        closed = true;
        db.close();
      },
    };
  } catch (error) {
    db.close();
    throw error;
  }
}
