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

export const incidentBody = {
  name: "Elevated error rate on the public API",
  severity: "MAJOR",
  services: [{ id: "svc-api" }],
};
