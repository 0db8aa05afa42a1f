import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createEmulator, type Emulator, type EmulatorOptions } from "./create-emulator";

export interface StartEmulatorOptions extends EmulatorOptions {
  /** Interface to listen on; loopback only by default. @default "127.0.0.1" */
  host?: string;
  /** Port; 0 picks a free one (read it from `url`). @default 0 */
  port?: number;
}

export interface RunningEmulator {
  /** Base URL, e.g. `http://127.0.0.1:4010`, without a trailing slash. */
  url: string;
  emulator: Emulator;
  /** The first account of the seed and its first key, for printing and quick starts. */
  demo: { apiKey: string; accountId: string };
  adminToken: string;
  /** Stops listening, drops open connections and closes the database. */
  close(): Promise<void>;
}

/**
 * Starts the emulator as an HTTP server. Without `seed`, the bundled demo seed is used,
 * so there is always an account to talk to.
 */
export async function startEmulator(options: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const { host = "127.0.0.1", port = 0, ...emulatorOptions } = options;
  const emulator = createEmulator({ ...emulatorOptions, seed: emulatorOptions.seed ?? "demo" });
  const account = emulator.seed?.accounts[0];
  const apiKey = account?.apiKeys[0];
  if (account === undefined || apiKey === undefined) {
    emulator.close();
    throw new Error(
      "the seed has no account: add one under accounts (see examples/seed/demo.yaml)",
    );
  }
  const requests = trackInFlight(emulator.app.fetch);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch: requests.fetch, hostname: host, port }, () => resolve(started));
    started.once("error", (error) => {
      emulator.close();
      reject(error);
    });
  });
  const address = server.address() as AddressInfo;
  const hostInUrl = address.family === "IPv6" ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${hostInUrl}:${address.port}`,
    emulator,
    demo: { apiKey, accountId: account.id },
    adminToken: emulator.adminToken,
    close() {
      closing ??= new Promise<void>((resolve) => {
        // A handler can still be running (injected latency, a dropped client) after its
        // socket is gone; the database closes only once every handler has finished.
        server.close(() => {
          void requests.drained().then(() => {
            emulator.close();
            resolve();
          });
        });
        if ("closeAllConnections" in server) server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** Wraps a fetch handler to count the requests it is still handling. */
function trackInFlight<Args extends unknown[]>(
  handle: (...args: Args) => Response | Promise<Response>,
): { fetch: (...args: Args) => Promise<Response>; drained: () => Promise<void> } {
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  return {
    async fetch(...args) {
      inFlight++;
      try {
        return await handle(...args);
      } finally {
        inFlight--;
        if (inFlight === 0) for (const wake of waiting.splice(0)) wake();
      }
    },
    drained: () =>
      inFlight === 0 ? Promise.resolve() : new Promise<void>((wake) => waiting.push(wake)),
  };
}
