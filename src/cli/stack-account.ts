import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { projectOf, stackFilesOf } from "../definitions/stack-entries";
import { configKey } from "../settings/stack-config";
import { ApiOptionsError } from "./api-options";

/** Where a command looks for the project whose stack config names the account. */
export interface StackAccountSource {
  /** A folder in the project: the definitions directory, or the working directory. */
  readonly from: string;
  /** The stack named with `--stack`, whose file alone then counts. */
  readonly stack?: string | undefined;
}

/**
 * The account the project's stack config names (`incident-sync:accountId` in
 * `Pulumi.<stack>.yaml`, else the default `Pulumi.yaml` declares), as `up` sends it, so a
 * command that reads the API without running the stack acts for the same account: the file of
 * `--stack` when one is named, else the one account all the stack files agree on. Several
 * accounts and no `--stack` is an error that lists them; no project or no account, undefined.
 */
export function stackAccount(source: StackAccountSource): string | undefined {
  const project = projectOf(source.from);
  if (project === undefined) return undefined;
  const stackName = source.stack?.split("/").at(-1);
  const files = stackFilesOf(project.dir)
    .filter((ref) => stackName === undefined || ref.stack === stackName)
    .map((ref) => `Pulumi.${ref.stack}.yaml`);
  const named = files.flatMap((file) => {
    const account = accountIn(join(project.dir, file), "config");
    return account === undefined ? [] : [{ file, account }];
  });
  const accounts = [...new Set(named.map((entry) => entry.account))];
  if (accounts.length === 1) return accounts[0];
  if (accounts.length > 1) {
    throw new ApiOptionsError(
      `No account was given, and the stack files name several: ${named.map((entry) => `${entry.file} ${JSON.stringify(entry.account)}`).join(", ")}. Pass --account-id (or MONITORING_ACCOUNT_ID)${source.stack === undefined ? ", or --stack where the command has it" : ""}.`,
    );
  }
  return accountIn(join(project.dir, "Pulumi.yaml"), "default");
}

/** `incident-sync:accountId` of a stack file's `config`, or the default `Pulumi.yaml` declares. */
function accountIn(file: string, where: "config" | "default"): string | undefined {
  let document: unknown;
  try {
    document = parse(readFileSync(file, "utf8"));
  } catch {
    // Unreadable or not YAML: Pulumi itself reports it when the stack runs.
    return undefined;
  }
  const value = (document as { config?: Record<string, unknown> } | null)?.config?.[
    configKey("accountId")
  ];
  const account = where === "default" ? (value as { default?: unknown } | null)?.default : value;
  return typeof account === "string" && account.trim() !== "" ? account.trim() : undefined;
}
