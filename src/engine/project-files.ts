import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ConfigMap, ProjectSettings } from "@pulumi/pulumi/automation";
import { parse } from "yaml";
import { z } from "zod";
import { EngineError } from "./errors";

const ProjectFile = z.object({
  name: z.string().min(1),
  description: z.string().optional(),
  runtime: z.union([
    z.string(),
    z.object({ name: z.string(), options: z.record(z.string(), z.unknown()).optional() }),
  ]),
  main: z.string().optional(),
});

const StackFile = z.object({
  config: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.object({}).loose()]))
    .optional(),
});

/** The project settings of `Pulumi.yaml` in the repository. */
export function readProjectSettings(repoRoot: string): ProjectSettings & { main?: string } {
  const file = join(repoRoot, "Pulumi.yaml");
  if (!existsSync(file)) {
    throw new EngineError(
      `${file} is missing: restore it from git (\`git checkout Pulumi.yaml\`).`,
    );
  }
  const parsed = ProjectFile.safeParse(parse(readFileSync(file, "utf8")));
  if (!parsed.success) {
    throw new EngineError(
      `${file} is not a valid Pulumi project file:\n${z.prettifyError(parsed.error)}`,
    );
  }
  const { name, description, runtime, main } = parsed.data;
  return {
    name,
    runtime: typeof runtime === "string" ? { name: runtime } : runtime,
    ...(description ? { description } : {}),
    ...(main ? { main } : {}),
  } as ProjectSettings & { main?: string };
}

/**
 * The non-secret defaults committed in `Pulumi.<stack>.yaml`, or none when that file does not
 * exist. A committed secret is refused: secrets are set by the harness, never stored in git.
 */
export function readStackDefaults(repoRoot: string, stackName: string): ConfigMap {
  const file = join(repoRoot, `Pulumi.${stackName}.yaml`);
  if (!existsSync(file)) return {};
  const parsed = StackFile.safeParse(parse(readFileSync(file, "utf8")) ?? {});
  if (!parsed.success) {
    throw new EngineError(`${file} is not a valid stack file:\n${z.prettifyError(parsed.error)}`);
  }
  const config: ConfigMap = {};
  for (const [key, value] of Object.entries(parsed.data.config ?? {})) {
    if (typeof value === "object") {
      throw new EngineError(
        `${file} sets ${key} to a structured or secret value; it may hold only plain non-secret defaults. Remove ${key} from it; the harness sets secrets itself.`,
      );
    }
    config[key] = { value: String(value), secret: false };
  }
  return config;
}
