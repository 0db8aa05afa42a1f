#!/usr/bin/env node
// `npm run engine`: make a working Pulumi engine available and say where it is.
//
// Plain ESM on purpose: it runs before `npm run build`, so it must need no compile step.
// Resolution order for the CLI (first match wins):
//   1. INCIDENT_SYNC_PULUMI_BIN, a directory holding a `pulumi` binary;
//   2. `pulumi` on PATH;
//   3. the per-user cache, keyed by version, from an earlier build;
//   4. a build of the CLI from its Go modules with the machine's `go`.
// The version is the one of the installed `@pulumi/pulumi` package, so the CLI and the SDK match.
// The Node.js language host (`pulumi-language-nodejs`), which runs the program for `pulumi up`:
//   1. beside the CLI, or on PATH (every standard Pulumi install has it there);
//   2. the per-user cache, from an earlier build;
//   3. built from its source in ../shared/pulumi-language-nodejs when that folder exists (our
//      machines and CI: the Go module proxy does not serve that module, so it is vendored there);
//   4. otherwise an error that says how a user gets it: a standard Pulumi install.
//
// Usage: node scripts/engine.mjs [--json] [--quiet] [--help]

import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const cliModule = "github.com/pulumi/pulumi/pkg/v3";
const cliPackage = `${cliModule}/cmd/pulumi`;
const dynamicProviderPlugin = "pulumi-resource-pulumi-nodejs";
const languageHostName = "pulumi-language-nodejs";
// Our machines and CI keep the language host's unmodified source beside the checkout.
const languageHostBuilder = join(repoRoot, "..", "shared", "bin", "build-pulumi-language-nodejs");
const versionSymbol = "github.com/pulumi/pulumi/sdk/v3/go/common/version.Version";
// pkg/v3's own go.mod replaces these; `replace` only applies in the main module, so the
// wrapper module repeats it. The `sdk/v3 => ../sdk` replace is covered by requiring the
// published sdk/v3 of the same version.
const inheritedReplaces = [
  "github.com/atotto/clipboard => github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e",
];

const args = new Set(process.argv.slice(2));
if (args.has("--help") || args.has("-h")) {
  process.stdout.write(`Usage: npm run engine [-- --json] [-- --quiet]

Makes the Pulumi CLI available for incident-sync and prints where it is.

  1. INCIDENT_SYNC_PULUMI_BIN=<dir with pulumi>  use that CLI
  2. pulumi on PATH                              use it
  3. otherwise build it once with Go into the per-user cache
     ($XDG_CACHE_HOME or ~/.cache)/incident-sync/pulumi/v<version>/bin
     Go is INCIDENT_SYNC_GO, else go on PATH, else /usr/local/go/bin/go.

The Node.js language host (pulumi-language-nodejs) that runs the program is taken from
beside the CLI or from PATH (a standard Pulumi install has both), else from the cache,
else built into the cache from ../shared/pulumi-language-nodejs when that folder exists.

Options:
  --json    print the result as one JSON object on stdout (progress still goes to stderr)
  --quiet   print no progress, only errors (and the JSON with --json)

Exit codes: 0 engine ready, 1 no engine could be made available.
`);
  process.exit(0);
}
const json = args.has("--json");
const quiet = args.has("--quiet");
const say = (line) => {
  if (!quiet) process.stderr.write(`${line}\n`);
};

class EngineError extends Error {}

function sdkVersion() {
  const manifest = join(repoRoot, "node_modules", "@pulumi", "pulumi", "package.json");
  if (!existsSync(manifest)) {
    throw new EngineError(
      "@pulumi/pulumi is not installed in node_modules: run `npm install` first.",
    );
  }
  return JSON.parse(readFileSync(manifest, "utf8")).version;
}

function cacheRoot() {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "incident-sync", "pulumi");
}

function onPath(name, pathValue = process.env.PATH ?? "") {
  for (const dir of pathValue.split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** The version a `pulumi` binary reports, or undefined when it does not run. */
function reportedVersion(pulumi) {
  const result = spawnSync(pulumi, ["version"], {
    encoding: "utf8",
    env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "1" },
    timeout: 60_000,
  });
  if (result.status !== 0) return undefined;
  return result.stdout.trim().replace(/^v/, "");
}

function located(source, pulumi, version) {
  const binDir = dirname(pulumi);
  const languageHost = existsSync(join(binDir, languageHostName))
    ? join(binDir, languageHostName)
    : (onPath(languageHostName) ?? null);
  return { source, version, pulumi, binDir, languageHost };
}

function fromEnvironment() {
  const dir = process.env.INCIDENT_SYNC_PULUMI_BIN;
  if (!dir) return undefined;
  const pulumi = join(resolve(dir), "pulumi");
  const version = existsSync(pulumi) ? reportedVersion(pulumi) : undefined;
  if (!version) {
    throw new EngineError(
      `INCIDENT_SYNC_PULUMI_BIN=${dir} holds no working \`pulumi\` binary: point it at the directory that contains one, or unset it.`,
    );
  }
  return located("INCIDENT_SYNC_PULUMI_BIN", pulumi, version);
}

// The harness runs refresh and destroy of inline programs, which needs `--client` (3.181):
// package.json's `engines.pulumi`, which an installed package reads too.
const minimumCli = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"))
  .engines.pulumi.replace(/^>=\s*/, "")
  .split(".")
  .map(Number);

function atLeastMinimum(version) {
  const parts = version.split(/[.-]/).slice(0, 3).map(Number);
  for (let i = 0; i < 3; i += 1) {
    if (parts[i] !== minimumCli[i]) return (parts[i] ?? 0) > minimumCli[i];
  }
  return true;
}

function fromPath() {
  const pulumi = onPath("pulumi");
  if (!pulumi) return undefined;
  const version = reportedVersion(pulumi);
  if (version && !atLeastMinimum(version)) {
    say(
      `Ignoring ${pulumi} v${version}: incident-sync needs Pulumi ${minimumCli.join(".")} or later.`,
    );
    return undefined;
  }
  return version ? located("PATH", pulumi, version) : undefined;
}

/** INCIDENT_SYNC_GO when set, else `go` on PATH, else Go's standard install location. */
function findGo() {
  const chosen = process.env.INCIDENT_SYNC_GO;
  if (chosen) return existsSync(chosen) ? chosen : undefined;
  return onPath("go") ?? (existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : undefined);
}

function runGo(go, goArgs, cwd, onLine) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(go, goArgs, {
      cwd,
      env: { ...process.env, GOFLAGS: `${process.env.GOFLAGS ?? ""} -mod=mod`.trim() },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let tail = "";
    const collect = (chunk) => {
      const text = chunk.toString();
      tail = (tail + text).slice(-4000);
      for (const line of text.split("\n")) if (line.trim()) onLine?.(line.trim());
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolvePromise();
      else reject(new EngineError(`\`go ${goArgs[0]}\` failed (exit ${code}):\n${tail}`));
    });
  });
}

function progressPrinter(label, total) {
  const tty = process.stderr.isTTY && !quiet;
  let done = 0;
  let lastShown = -1;
  return {
    tick() {
      done += 1;
      const percent = Math.min(100, Math.floor((done / total) * 100));
      if (tty) {
        process.stderr.write(
          `\r  ${label}: ${Math.min(done, total)}/${total} packages (${percent}%)`,
        );
      } else if (percent >= lastShown + 10) {
        lastShown = percent - (percent % 10);
        say(`  ${label}: ${Math.min(done, total)}/${total} packages (${percent}%)`);
      }
    },
    end() {
      if (tty) process.stderr.write("\n");
    },
  };
}

/** Wait for another build of the same version to finish; take over a lock left by a dead process. */
async function acquireLock(lockDir) {
  for (let waited = 0; ; waited += 1) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, "pid"), String(process.pid));
      return () => rmSync(lockDir, { recursive: true, force: true });
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
      const pid = Number(readFileSync(join(lockDir, "pid"), { encoding: "utf8", flag: "a+" }));
      let alive = false;
      try {
        if (pid) process.kill(pid, 0);
        alive = pid > 0;
      } catch {
        alive = false;
      }
      if (!alive && waited > 2) rmSync(lockDir, { recursive: true, force: true });
      if (waited === 0) say(`Waiting for another build of the engine (lock ${lockDir}).`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

async function build(version) {
  const go = findGo();
  if (!go) {
    throw new EngineError(
      `Neither the Pulumi CLI nor Go is available: install Pulumi v${version} (https://www.pulumi.com/docs/install/) or Go 1.25+ (https://go.dev/dl/) and run \`npm run engine\` again.`,
    );
  }
  const versionDir = join(cacheRoot(), `v${version}`);
  const binDir = join(versionDir, "bin");
  const pulumi = join(binDir, "pulumi");
  mkdirSync(versionDir, { recursive: true });
  const release = await acquireLock(join(versionDir, "build.lock"));
  try {
    if (existsSync(pulumi) && reportedVersion(pulumi) === version) {
      return located("cache", pulumi, version);
    }
    const started = Date.now();
    const tag = `v${version}`;
    say(
      `Building the Pulumi CLI ${tag} from Go modules (first time only; takes a while on 2 cores).`,
    );
    const moduleDir = join(versionDir, "build");
    mkdirSync(moduleDir, { recursive: true });
    say(`[1/4] Writing the wrapper module in ${moduleDir}`);
    writeFileSync(
      join(moduleDir, "go.mod"),
      [
        "// Generated by incident-sync scripts/engine.mjs: builds the Pulumi CLI at one version.",
        "module incident-sync.local/pulumi-engine",
        "",
        "go 1.25",
        "",
        `require ${cliModule} ${tag}`,
        "",
        ...inheritedReplaces.map((r) => `replace ${r}`),
        "",
      ].join("\n"),
    );
    say(`[2/4] Resolving ${cliModule}@${tag} and its dependencies (go get)`);
    try {
      await runGo(go, ["get", `${cliPackage}@${tag}`], moduleDir);
    } catch (error) {
      throw new EngineError(
        `Go could not fetch ${cliModule}@${tag} (the module proxy must serve it): ${error.message}\nInstall Pulumi v${version} yourself and put it on PATH, or set INCIDENT_SYNC_PULUMI_BIN.`,
      );
    }
    say("[3/4] Counting packages to compile");
    const list = spawnSync(go, ["list", "-deps", cliPackage], {
      cwd: moduleDir,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    const total = Math.max(1, list.stdout.split("\n").filter(Boolean).length);
    const staging = join(versionDir, `bin.partial-${process.pid}`);
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    say(`[4/4] Compiling ${cliPackage} (${total} packages; cached ones are skipped)`);
    const progress = progressPrinter("go build", total);
    await runGo(
      go,
      [
        "build",
        "-v",
        "-trimpath",
        "-o",
        join(staging, "pulumi"),
        "-ldflags",
        `-s -w -X ${versionSymbol}=${tag}`,
        cliPackage,
      ],
      moduleDir,
      (line) => {
        if (!line.startsWith("go:")) progress.tick();
      },
    );
    progress.end();
    const built = reportedVersion(join(staging, "pulumi"));
    if (built !== version) {
      throw new EngineError(
        `The built CLI reports version ${built ?? "nothing"} instead of ${version}: delete ${versionDir} and run \`npm run engine\` again.`,
      );
    }
    rmSync(binDir, { recursive: true, force: true });
    renameSync(staging, binDir);
    say(`Built in ${Math.round((Date.now() - started) / 1000)} s.`);
    return located("built", pulumi, version);
  } finally {
    release();
  }
}

/**
 * The engine finds plugins beside its binary without the "using ... from $PATH" warning, so a
 * CLI this script built gets the dynamic provider plugin script of `@pulumi/pulumi` beside it.
 * The script resolves `@pulumi/pulumi` from its working directory (or NODE_PATH) at run time.
 */
function installDynamicProviderPlugin(engine) {
  if (engine.source !== "cache" && engine.source !== "built") return;
  const source = join(repoRoot, "node_modules", "@pulumi", "pulumi", dynamicProviderPlugin);
  const target = join(engine.binDir, dynamicProviderPlugin);
  const wanted = readFileSync(source);
  if (existsSync(target) && readFileSync(target).equals(wanted)) return;
  writeFileSync(`${target}.${process.pid}.tmp`, wanted, { mode: 0o755 });
  renameSync(`${target}.${process.pid}.tmp`, target);
}

/** The language host of `engine`, else one cached or built for `version`, else an error. */
async function provideLanguageHost(engine, version) {
  if (engine.languageHost) return engine.languageHost;
  const binDir = join(cacheRoot(), `v${version}`, "bin");
  const cached = join(binDir, languageHostName);
  if (existsSync(cached)) return cached;
  if (!existsSync(languageHostBuilder)) {
    throw new EngineError(
      `The Pulumi CLI at ${engine.pulumi} has no Node.js language host (${languageHostName}) beside it or on PATH, and it is needed to run the program. A standard Pulumi install ships both: install Pulumi v${version} (https://www.pulumi.com/docs/install/, which puts pulumi and ${languageHostName} in ~/.pulumi/bin) and put that directory on PATH.`,
    );
  }
  mkdirSync(binDir, { recursive: true });
  const release = await acquireLock(join(cacheRoot(), `v${version}`, "language-host.lock"));
  try {
    if (existsSync(cached)) return cached;
    const started = Date.now();
    say(
      `Building the Node.js language host from ${dirname(dirname(languageHostBuilder))}/pulumi-language-nodejs (first time only).`,
    );
    await new Promise((resolvePromise, reject) => {
      // Its output is progress: stderr, so that --json keeps stdout to the one result line.
      const child = spawn("bash", [languageHostBuilder, binDir], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      let tail = "";
      const forward = (chunk) => {
        tail = (tail + chunk.toString()).slice(-4000);
        if (!quiet) process.stderr.write(chunk);
      };
      child.stdout.on("data", forward);
      child.stderr.on("data", forward);
      child.on("error", reject);
      child.on("close", (code) =>
        code === 0
          ? resolvePromise()
          : reject(new EngineError(`Building the language host failed (exit ${code}):\n${tail}`)),
      );
    });
    say(`Built the language host in ${Math.round((Date.now() - started) / 1000)} s.`);
    return cached;
  } finally {
    release();
  }
}

async function main() {
  const started = Date.now();
  const version = sdkVersion();
  const engine = fromEnvironment() ?? fromPath() ?? (await build(version));
  installDynamicProviderPlugin(engine);
  engine.languageHost = await provideLanguageHost(engine, version);
  engine.sdkVersion = version;
  engine.pluginDir = join(repoRoot, "node_modules", "@pulumi", "pulumi");
  engine.seconds = Math.round((Date.now() - started) / 100) / 10;
  if (json) {
    process.stdout.write(`${JSON.stringify(engine)}\n`);
  } else if (!quiet) {
    process.stdout.write(`Pulumi CLI v${engine.version} (${engine.source}): ${engine.pulumi}\n`);
    if (engine.version !== version) {
      process.stdout.write(`Note: @pulumi/pulumi is v${version}; the CLI is v${engine.version}.\n`);
    }
  }
}

main().catch((error) => {
  const message = error instanceof EngineError ? error.message : (error?.stack ?? String(error));
  process.stderr.write(`engine: ${message}\n`);
  process.exit(1);
});
