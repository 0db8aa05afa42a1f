import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describeBackend } from "../definitions/backend";
import { bareStackName } from "../definitions/stack-name";
import { cliError, type EngineCli } from "./engine-cli";
import { EngineError } from "./errors";
import { readStackSalt, writeRunConfig, writeStackSalt } from "./project-files";
import type { ProjectStackOptions } from "./project-stack-types";

/*
 * The steps of opening a project's stack, in the order `openProjectStack` takes them: the
 * stack to run, selected (or created), a sandbox's salt recovered, and the run's private
 * copy of its config written.
 */

/** The stack `pulumi stack select` chose for the project, or an error saying how to name one. */
export async function selectedStack(cli: EngineCli, backendUrl: string): Promise<string> {
  const shown = await cli.run(["stack", "--show-name", "--non-interactive"]);
  const name = shown.stdout.trim();
  if (shown.code === 0 && name !== "") return name;
  throw new EngineError(
    `Which stack? No --stack was given and no stack of this project is selected in ${describeBackend(backendUrl)}: pass --stack <name> (prod, acme/prod or acme/project/prod, as Pulumi names stacks), or select one with \`pulumi stack select <name>\`.`,
  );
}

/**
 * Selects the stack, creating it unless `create` is false. A sandbox stack is selected beside a
 * copy of Pulumi.yaml in its own folder, where the CLI writes its stack file.
 */
export async function selectStack(
  cli: EngineCli,
  stackName: string,
  options: ProjectStackOptions,
): Promise<void> {
  const sandbox = options.sandboxStackDir;
  if (sandbox !== undefined) {
    mkdirSync(sandbox, { recursive: true });
    copyFileSync(join(cli.projectDir, "Pulumi.yaml"), join(sandbox, "Pulumi.yaml"));
  }
  const selected = await cli.run(
    [
      "stack",
      "select",
      "--stack",
      stackName,
      ...(options.create === false ? [] : ["--create"]),
      "--non-interactive",
      ...(options.passphrase === undefined ? [] : ["--secrets-provider", "passphrase"]),
    ],
    sandbox === undefined ? {} : { cwd: sandbox },
  );
  if (selected.code === 0) return;
  const where = describeBackend(options.backendUrl);
  if (/no stack named/i.test(`${selected.stderr}\n${selected.stdout}`)) {
    const create =
      sandbox === undefined
        ? `\`incident-sync up --stack ${stackName}\` creates it (so does \`pulumi stack init ${stackName}\`)`
        : `\`incident-sync up --emulator --stack ${stackName}\` creates it in the emulator's sandbox`;
    throw new EngineError(
      `Stack ${stackName} does not exist in ${where}: ${create}. Only up creates a stack, so that a mistyped name never makes an empty one.`,
    );
  }
  throw new EngineError(`Selecting stack ${stackName} in ${where} failed: ${cliError(selected)}`);
}

/** A sandbox stack's own `Pulumi.<stack>.yaml`, in its folder. */
export function sandboxStackFile(
  options: ProjectStackOptions,
  stackName: string,
): string | undefined {
  const sandbox = options.sandboxStackDir;
  return sandbox === undefined
    ? undefined
    : join(sandbox, `Pulumi.${bareStackName(stackName)}.yaml`);
}

/**
 * A sandbox stack made before its stack file was kept beside it (or whose file was lost) still
 * has its passphrase's salt in its state: written back, so its secrets keep opening.
 */
export async function recoverSandboxSalt(
  cli: EngineCli,
  stackName: string,
  file: string,
): Promise<void> {
  if (readStackSalt(file) !== undefined) return;
  const exported = await cli.must(
    ["stack", "export", "--stack", stackName],
    `Exporting stack ${stackName}`,
  );
  const salt = (
    JSON.parse(exported.stdout) as {
      deployment?: { secrets_providers?: { type?: string; state?: { salt?: unknown } } };
    }
  ).deployment?.secrets_providers?.state?.salt;
  if (typeof salt === "string") writeStackSalt(file, salt);
}

/**
 * The run's private copy of `Pulumi.<stack>.yaml` with `config` applied (a secret through
 * `pulumi config set --secret` on stdin), which every command then reads with
 * `--config-file`; none without `config`, and the committed file is read as it is.
 */
export async function writeConfigFile(
  cli: EngineCli,
  stackName: string,
  options: ProjectStackOptions,
  sandboxFile: string | undefined,
): Promise<string | undefined> {
  if (!options.config) return undefined;
  const bareName = bareStackName(stackName);
  const configFile = join(cli.workDir, `Pulumi.${bareName}.yaml`);
  const entries = Object.entries(options.config);
  const plain = entries.filter(([, entry]) => !entry.secret);
  writeRunConfig(
    cli.projectDir,
    bareName,
    configFile,
    Object.fromEntries(plain.map(([key, entry]) => [key, entry.value])),
    sandboxFile,
  );
  for (const [key, entry] of entries.filter(([, entry]) => entry.secret)) {
    await cli.must(
      [
        "config",
        "set",
        "--secret",
        "--stack",
        stackName,
        "--config-file",
        configFile,
        "--non-interactive",
        key,
      ],
      `Setting the secret ${key}`,
      entry.value,
    );
  }
  return configFile;
}
