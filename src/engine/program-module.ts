import { createRequire } from "node:module";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { EngineError } from "./errors";

/**
 * Runs a compiled Pulumi program (CommonJS, e.g. `dist/index.js`) as an Automation API inline
 * program. The module may export a function (Pulumi's "exported top-level function" form,
 * whose result becomes the stack outputs) or declare resources at load time and export the
 * outputs; it is loaded afresh for every run so each run declares its resources again.
 */
export function programFromModule(modulePath: string): PulumiFn {
  // A require rooted at the program itself works whether this module runs compiled (CommonJS)
  // or transformed by a test runner, and shares Node's module cache, so the program and the
  // Automation API use one `@pulumi/pulumi`.
  const load = createRequire(modulePath);
  return async () => {
    const resolved = load.resolve(modulePath);
    delete load.cache[resolved];
    let loaded: unknown;
    try {
      loaded = load(resolved);
    } catch (error) {
      throw new EngineError(
        `The Pulumi program ${modulePath} failed to load: ${(error as Error).message}. Run \`npm run build\` and check the program.`,
        { cause: error },
      );
    }
    const exported = unwrapDefault(loaded);
    if (typeof exported === "function") {
      return (await (exported as () => unknown)()) as Record<string, unknown> | undefined;
    }
    return exported as Record<string, unknown> | undefined;
  };
}

function unwrapDefault(loaded: unknown): unknown {
  if (typeof loaded === "object" && loaded !== null && "default" in loaded) {
    const keys = Object.keys(loaded).filter((key) => key !== "__esModule");
    if (keys.length === 1) return (loaded as { default: unknown }).default;
  }
  return loaded;
}
