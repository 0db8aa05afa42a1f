import { execFile } from "node:child_process";

/**
 * One cold `incident-sync validate --format json` process over `dir`: its wall time (spawn to
 * exit), the time and peak RSS it measured itself, and a summary of its report (`valid`, the
 * number of `definitions` and of `problems`). `{ wallMs, failed }` when it timed out or wrote
 * no report. Exit code 1 (problems found) is a result like any other.
 */
export async function coldValidate(cli, dir, { timeoutMs } = {}) {
  const script = `
    const start = performance.now();
    process.argv = [process.argv[0], ${JSON.stringify(cli)}, "validate", ${JSON.stringify(dir)}, "--format", "json"];
    const write = process.stdout.write.bind(process.stdout);
    let out = "";
    process.stdout.write = (chunk) => { out += chunk; return true; };
    require(${JSON.stringify(cli)});
    process.on("beforeExit", () => {
      process.stdout.write = write;
      const report = JSON.parse(out);
      write(JSON.stringify({ ms: performance.now() - start, maxRssKiB: process.resourceUsage().maxRSS, valid: report.valid, definitions: report.definitions?.length, problems: report.problems?.length }));
    });`;
  const start = performance.now();
  const outcome = await new Promise((resolve) => {
    execFile(
      process.execPath,
      ["-e", script],
      { maxBuffer: 256 << 20, ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }) },
      (error, stdout) => resolve({ error, stdout }),
    );
  });
  const wallMs = performance.now() - start;
  if (outcome.error?.killed) return { wallMs, failed: "timeout" };
  try {
    return { wallMs, ...JSON.parse(outcome.stdout) };
  } catch {
    return { wallMs, failed: String(outcome.error?.message ?? "no output").split("\n")[0] };
  }
}
