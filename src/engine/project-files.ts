import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { z } from "zod";
import { EngineError } from "./errors";

const ProjectFile = z.object({ name: z.string().min(1) }).loose();

const StackFile = z
  .object({ config: z.record(z.string(), z.unknown()).nullish() })
  .loose()
  .nullable();

/** The project name in `Pulumi.yaml` of `projectDir`. */
export function readProjectName(projectDir: string): string {
  const file = join(projectDir, "Pulumi.yaml");
  if (!existsSync(file)) {
    throw new EngineError(
      `${file} is missing: run incident-sync from the project directory (the one holding Pulumi.yaml and incidents/), or pass it with --project.`,
    );
  }
  const parsed = ProjectFile.safeParse(parse(readFileSync(file, "utf8")));
  if (!parsed.success) {
    throw new EngineError(
      `${file} is not a valid Pulumi project file:\n${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data.name;
}

/**
 * Writes the config of one run to `file`: the project's `Pulumi.<stack>.yaml` (its encryption
 * salt and secrets included) with `values` set on top. The file is private to the run (mode
 * 0600, outside the repository), so the committed stack file is never rewritten with a run's
 * URL or key. Secrets are added afterwards with `pulumi config set --secret`, from stdin.
 */
export function writeRunConfig(
  projectDir: string,
  stackName: string,
  file: string,
  values: Record<string, string>,
): void {
  const committed = join(projectDir, `Pulumi.${stackName}.yaml`);
  const text = existsSync(committed) ? readFileSync(committed, "utf8") : "";
  const parsed = StackFile.safeParse(text.trim() === "" ? {} : parse(text));
  if (!parsed.success) {
    throw new EngineError(
      `${committed} is not a valid stack file:\n${z.prettifyError(parsed.error)}`,
    );
  }
  const stack = parsed.data ?? {};
  const config = { ...(stack.config ?? {}), ...values };
  writeFileSync(file, stringify({ ...stack, config }), { mode: 0o600 });
  chmodSync(file, 0o600);
}
