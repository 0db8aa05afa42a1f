import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** Every file below `dir`, at any depth. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}

/** The files below `dir` whose content includes `text`: where a secret leaked to. */
export function filesContaining(dir: string, text: string): string[] {
  return filesUnder(dir).filter((file) => readFileSync(file, "utf8").includes(text));
}
