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
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch: emulator.app.fetch, hostname: host, port }, () =>
      resolve(started),
    );
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
        server.close(() => {
          emulator.close();
          resolve();
        });
        if ("closeAllConnections" in server) server.closeAllConnections();
      });
      return closing;
    },
  };
}
