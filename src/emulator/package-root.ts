import { join } from "node:path";
import { packageRoot } from "../package-root";

/** The bundled demo seed, chosen with `--seed demo` or `seed: "demo"`. */
export function demoSeedPath(): string {
  return join(packageRoot(), "examples", "seed", "demo.yaml");
}
