import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { z } from "zod";
import { EngineError } from "./errors";

const ProjectFile = z.object({ name: z.string().min(1) }).loose();

const StackFileContents = z.object({ config: z.record(z.string(), z.unknown()).nullish() }).loose();
const StackFile = StackFileContents.nullable();

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
 * The run's private copy (0600) of `Pulumi.<stack>.yaml` with `values` set, so the committed
 * file never gets a run's URL or key; secrets are added after, through stdin.
 */
export function writeRunConfig(
  projectDir: string,
  stackName: string,
  file: string,
  values: Record<string, string>,
  /**
   * A sandbox stack's own stack file (the emulator's): its salt and secrets provider are the
   * run's, and of the project's stack file only the plain values are taken (its secrets are
   * encrypted for another stack).
   */
  sandboxStackFile?: string,
): void {
  const committed = readStackFile(join(projectDir, `Pulumi.${stackName}.yaml`));
  if (sandboxStackFile === undefined) {
    const config = { ...(committed.config ?? {}), ...values };
    writeFileSync(file, stringify({ ...committed, config }), { mode: 0o600 });
  } else {
    const plain = Object.entries(committed.config ?? {}).filter(
      ([, value]) => typeof value !== "object" || value === null,
    );
    const { config: _sandboxConfig, ...sandbox } = readStackFile(sandboxStackFile);
    writeFileSync(
      file,
      stringify({ ...sandbox, config: { ...Object.fromEntries(plain), ...values } }),
      {
        mode: 0o600,
      },
    );
  }
  chmodSync(file, 0o600);
}

/** A stack file's contents; empty when there is none. */
function readStackFile(path: string): z.infer<typeof StackFileContents> {
  const text = existsSync(path) ? readFileSync(path, "utf8") : "";
  const parsed = StackFile.safeParse(text.trim() === "" ? {} : parse(text));
  if (!parsed.success) {
    throw new EngineError(`${path} is not a valid stack file:\n${z.prettifyError(parsed.error)}`);
  }
  return parsed.data ?? {};
}

/** The `encryptionsalt` of a stack file, when it has one. */
export function readStackSalt(path: string): string | undefined {
  const salt = readStackFile(path).encryptionsalt;
  return typeof salt === "string" ? salt : undefined;
}

/** Sets a stack file's `encryptionsalt`, keeping the rest. */
export function writeStackSalt(path: string, salt: string): void {
  writeFileSync(path, stringify({ ...readStackFile(path), encryptionsalt: salt }));
}
