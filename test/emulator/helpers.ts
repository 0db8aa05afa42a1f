import type { Hono } from "hono";
import { createEmulator, type Emulator, type EmulatorOptions } from "../../src/emulator";

/** A fixed clock for tests: 2026-11-03T12:00:00.000Z. */
export const NOW = new Date("2026-11-03T12:00:00.000Z");
export const DEMO_KEY = "demo-key";
export const OTHER_KEY = "other-key";
export const ADMIN = "test-admin-token";

export function demoEmulator(options: EmulatorOptions = {}): Emulator {
  return createEmulator({ seed: "demo", adminToken: ADMIN, now: () => NOW, ...options });
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** One in-process request; `key: null` sends no Authorization header. */
export async function call(app: Hono, method: string, path: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? DEMO_KEY : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const response = await app.request(path, { method, headers, body });
  const text = await response.text();
  const json: unknown = text === "" ? undefined : JSON.parse(text);
  return { status: response.status, headers: response.headers, json };
}

/** The account the demo key acts for. */
export const DEMO_ACCOUNT = "acct-demo";

/** The demo seed's services and their names. */
export const DEMO_SERVICES: Readonly<Record<string, string>> = {
  "svc-api": "Public API",
  "svc-checkout": "Checkout",
  "svc-web": "Web app",
  "svc-db": "Primary database",
  "svc-auth": "Login and SSO",
};

/**
 * A service as a PUT body must send it: its id, its name and the account the request acts for
 * (the demo key's, unless told).
 */
export function service(id: string, accountId = DEMO_ACCOUNT) {
  return { id, name: DEMO_SERVICES[id] ?? id, accountId };
}

export const incidentBody = {
  name: "Elevated error rate on the public API",
  severity: "MAJOR",
  services: [service("svc-api")],
};
