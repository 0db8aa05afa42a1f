// The one way tests, `npm run screenshots` and `npm run bench` start a browser: the Chromium
// that `npm ci` installs from the npm registry inside @sparticuz/chromium (a brotli-packed
// headless shell), driven by playwright-core with that package's flags. Nothing is taken
// from the system (no /usr/bin/chromium) and nothing is downloaded.
//
// Plain JavaScript (typed by JSDoc, checked by `npm run typecheck`) so the .mjs benchmark
// and screenshot scripts share it with the TypeScript tests.
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rename, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import sparticuz from "@sparticuz/chromium";
import { chromium } from "playwright-core";

const packageDir = path.resolve(
  path.dirname(createRequire(import.meta.url).resolve("@sparticuz/chromium")),
  "..",
);
const { version } = /** @type {{ version: string }} */ (
  JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8"))
);

/** @type {Promise<string> | undefined} */
let unpacking;

/**
 * The path of the unpacked browser, unpacking it on first use (about 3 s).
 *
 * @sparticuz/chromium unpacks into `os.tmpdir()` and takes any `chromium` file there as
 * done, so two test files unpacking at once could launch a half-written binary, and an
 * older version's binary would be reused. Here each version unpacks into a fresh staging
 * folder (TMPDIR points there for the duration of the call) that is then renamed into
 * place in one step: a process sees either no folder or a complete one. When two
 * processes race, the first rename wins and the loser drops its copy.
 *
 * @returns {Promise<string>}
 */
export function chromiumExecutable() {
  unpacking ??= unpack();
  return unpacking;
}

async function unpack() {
  const base = tmpdir();
  const target = path.join(base, `incident-sync-chromium-${version}`);
  const executable = path.join(target, "chromium");
  if (existsSync(executable)) return executable;
  const staging = await mkdtemp(`${target}.partial-`);
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = staging;
  try {
    await sparticuz.executablePath();
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  }
  try {
    await rename(staging, target);
  } catch (error) {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code;
    if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
    await rm(staging, { recursive: true, force: true });
  }
  return executable;
}

/**
 * Launches the packaged headless Chromium. The UI language is fixed to en-US, so numbers
 * and dates read the same on every machine. Under LANG=C (CI, containers) Chromium would
 * report "en-US@posix", which Intl rejects; the reports handle that themselves, and
 * test/reports/html-browser.test.ts launches one such browser to show it.
 *
 * @param {import("playwright-core").LaunchOptions} [options] merged over the defaults
 * @returns {Promise<import("playwright-core").Browser>}
 */
export async function launchChromium(options = {}) {
  return chromium.launch({
    executablePath: await chromiumExecutable(),
    args: [...sparticuz.args, "--lang=en-US"],
    headless: true,
    ...options,
  });
}
