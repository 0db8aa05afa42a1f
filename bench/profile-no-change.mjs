// Where a no-change `up` spends its CPU: ours and the no-op peer, each a stack of N incidents
// adopted by a first `up` (not profiled), then one no-change `up` with every Node process of
// the engine (the program, the dynamic provider plugin) writing a V8 CPU profile
// (NODE_OPTIONS=--cpu-prof). Prints, per process kind, the CPU time and the self time by
// package (or by file of incident-sync), ours beside the peer. Not a benchmark (no medians):
// the map of the overhead that `bench/scale.bench.mjs` measures. `--scenario first` profiles
// the first `up` instead (every incident adopted), and both print the CPU this process (the
// emulator) spent answering. KEEP_PROFILES=1 keeps the profiles and prints where.
//
//   npm run build && npx node bench/profile-no-change.mjs [--incidents 1000] [--top 12] [--scenario first]
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { saveResult } from "./support/results.mjs";
import {
  NOOP_PROGRAM,
  repoRoot,
  scaleSeed,
  scaleStackConfig,
  writeScaleDefinitions,
  writeScaleProject,
} from "./support/scale-project.mjs";

const require = createRequire(import.meta.url);
const { startEmulator } = require(path.join(repoRoot, "dist", "src", "emulator"));
const { openProjectStack, resolveEngine } = require(path.join(repoRoot, "dist", "src", "engine"));

const { values } = parseArgs({
  options: {
    incidents: { type: "string", default: "1000" },
    top: { type: "string", default: "12" },
    scenario: { type: "string", default: "no-change" },
  },
});
const incidents = Number(values.incidents);
if (!["no-change", "first"].includes(values.scenario)) {
  throw new Error(`--scenario is no-change or first, not ${values.scenario}`);
}
const profileFirst = values.scenario === "first";
const work = mkdtempSync(path.join(tmpdir(), "incident-sync-profile-"));
const engine = await resolveEngine();

/** Self time by where the code comes from: a package, Node itself, or a file of incident-sync. */
function origin(url) {
  if (!url) return "(V8: GC, idle, native)";
  if (url.startsWith("node:")) return "node:*";
  const modules = url.lastIndexOf("node_modules/");
  if (modules !== -1) {
    const rest = url.slice(modules + "node_modules/".length).split("/");
    const name = rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
    if (name !== "incident-sync") return name ?? url;
    return `incident-sync/${rest.slice(1).join("/")}`;
  }
  const dist = url.indexOf("/dist/");
  return dist === -1 ? url : `incident-sync${url.slice(dist)}`;
}

/** One `.cpuprofile`: total sampled time and self time by origin, in ms. */
function readProfile(file) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  const deltas = profile.timeDeltas;
  let total = 0;
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    const ms = (deltas[index] ?? 0) / 1000;
    const name = node?.callFrame.functionName;
    const key = name === "(idle)" ? "(idle)" : origin(node?.callFrame.url);
    self.set(key, (self.get(key) ?? 0) + ms);
    if (key !== "(idle)") total += ms;
  });
  const urls = profile.nodes.map((node) => node.callFrame.url);
  const kind = urls.some((url) => url.includes("cmd/dynamic-provider"))
    ? "provider plugin"
    : urls.some((url) => url.includes("cmd/run"))
      ? "program"
      : "other";
  return { kind, total, self };
}

async function profiled(kind, program) {
  const project = writeScaleProject(
    path.join(work, kind),
    program ? { name: "incident-sync-noop", program } : {},
  );
  writeScaleDefinitions(project, incidents, { variant: 0, changed: 0 });
  const emulator = await startEmulator({ port: 0, seed: scaleSeed(incidents) });
  const profiles = path.join(work, `${kind}-profiles`);
  mkdirSync(profiles);
  const open = () =>
    openProjectStack({
      projectDir: project,
      stackName: "profile",
      backendUrl: `file://${path.join(work, `${kind}-state`)}`,
      passphrase: "profile-passphrase",
      pulumiHome: path.join(work, "pulumi-home"),
      engine,
      log: () => {},
      config: scaleStackConfig(emulator.url),
    });
  try {
    if (!profileFirst) {
      const first = await open();
      const adopted = await first.up();
      first.close();
      if (!adopted.ok) throw new Error(`${kind}: first up failed:\n${adopted.stderr}`);
    }
    const previous = process.env.NODE_OPTIONS;
    process.env.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${profiles} --require ${path.join(repoRoot, "bench", "support", "exit-on-signal.cjs")}`;
    const stack = await open();
    // Only the second stack's processes are profiled; an unset variable stays unset.
    if (previous === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = previous;
    const started = performance.now();
    const cpu = process.cpuUsage();
    const same = await stack.up();
    const ms = performance.now() - started;
    const { user, system } = process.cpuUsage(cpu);
    const emulatorCpuMs = (user + system) / 1000;
    stack.close();
    if (!same.ok) throw new Error(`${kind}: ${values.scenario} up failed:\n${same.stderr}`);
    const read = readdirSync(profiles).map((file) => readProfile(path.join(profiles, file)));
    console.error(
      `${kind}: ${read.map((p) => `${p.kind} ${(p.total / 1000).toFixed(2)} s`).join(", ")}`,
    );
    return { ms, emulatorCpuMs, profiles: read };
  } finally {
    await emulator.close();
  }
}

try {
  const ours = await profiled("ours");
  const peer = await profiled("peer", NOOP_PROGRAM);
  const top = Number(values.top);
  const result = {
    incidents,
    scenario: values.scenario,
    oursMs: Math.round(ours.ms),
    peerMs: Math.round(peer.ms),
    emulatorCpuMs: { ours: Math.round(ours.emulatorCpuMs), peer: Math.round(peer.emulatorCpuMs) },
    kinds: {},
  };
  console.log(
    `${profileFirst ? "First" : "No-change"} up of ${incidents}: ours ${(ours.ms / 1000).toFixed(1)} s, peer ${(peer.ms / 1000).toFixed(1)} s; the emulator's CPU (this process) ${(ours.emulatorCpuMs / 1000).toFixed(2)} s, peer ${(peer.emulatorCpuMs / 1000).toFixed(2)} s`,
  );
  for (const kind of ["program", "provider plugin"]) {
    const sum = (run) => {
      const self = new Map();
      let total = 0;
      for (const profile of run.profiles.filter((p) => p.kind === kind)) {
        total += profile.total;
        for (const [key, ms] of profile.self) self.set(key, (self.get(key) ?? 0) + ms);
      }
      return { total, self };
    };
    const [o, p] = [sum(ours), sum(peer)];
    const keys = [...new Set([...o.self.keys(), ...p.self.keys()])]
      .filter((key) => key !== "(idle)")
      .sort((a, b) => (o.self.get(b) ?? 0) - (o.self.get(a) ?? 0))
      .slice(0, top);
    console.log(
      `\n${kind}: CPU ${(o.total / 1000).toFixed(2)} s ours, ${(p.total / 1000).toFixed(2)} s peer`,
    );
    console.log("| self time by origin | ours ms | peer ms |\n| --- | ---: | ---: |");
    for (const key of keys) {
      console.log(
        `| ${key} | ${Math.round(o.self.get(key) ?? 0)} | ${Math.round(p.self.get(key) ?? 0)} |`,
      );
    }
    result.kinds[kind] = {
      oursCpuMs: Math.round(o.total),
      peerCpuMs: Math.round(p.total),
      top: keys.map((key) => ({
        origin: key,
        oursMs: Math.round(o.self.get(key) ?? 0),
        peerMs: Math.round(p.self.get(key) ?? 0),
      })),
    };
  }
  await saveResult("profile-no-change", result);
} finally {
  if (process.env.KEEP_PROFILES) console.error(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
