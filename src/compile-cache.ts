import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

/**
 * Where Node keeps the compiled code of this tool's modules: `$NODE_COMPILE_CACHE` when set,
 * else `$XDG_CACHE_HOME/incident-sync/compile-cache` (`~/.cache` when that variable is unset
 * or relative, as the XDG spec says), never Node's default under the shared `$TMPDIR`.
 * Undefined when `NODE_DISABLE_COMPILE_CACHE` is set: no cache at all.
 */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  if (env.NODE_COMPILE_CACHE) return env.NODE_COMPILE_CACHE;
  const xdg = env.XDG_CACHE_HOME;
  const caches = xdg !== undefined && isAbsolute(xdg) ? xdg : join(homedir(), ".cache");
  return join(caches, "incident-sync", "compile-cache");
}
