import type { EmulatorControl } from "./control";
import type { FaultInjector } from "./faults";
import type { RequestCounter } from "./request-stats";
import type { Stores } from "./store";

/**
 * What the emulator's app is built from: `createApp` (app.ts) takes it whole, and the public
 * API's routes (routes/public-api.ts) the parts they serve with.
 */
export interface AppContext {
  stores: Stores;
  control: EmulatorControl;
  faults: FaultInjector;
  requests: RequestCounter;
  adminToken: string;
  now: () => Date;
  /** Receives unexpected errors (bugs); the client only sees a generic 500. */
  onInternalError: (error: unknown) => void;
}
