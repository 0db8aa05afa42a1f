import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline/promises";
import { parse } from "yaml";
import { isSelfManagedBackend, selfManagedNameProblem } from "../../definitions/backend";
import { docsPage } from "../../package-root";
import { checkProjectWrite, type ProjectWrite, writeIntoProject } from "../../project-write";
import { SETTINGS } from "../../settings/catalog";
import { configKey } from "../../settings/stack-config";
import { UserError } from "../../user-error";
import { ExitCode } from "../exit-codes";
import { jsonOutput } from "../formats";
import { type ChecklistItem, kitChecklist, kitFiles } from "../init/github-kit";
import { GITIGNORE_LINES, type InitLayout, projectFiles } from "../init/project-files";
import type { CommandIo } from "../io";
import { schemaDirFor } from "../schema-dir";
import { UsageError } from "../usage-error";
import type { InitFlags } from "./init-options";

/** Files `init` would write are there already: it overwrites nothing, and names each. */
export class ExistingFilesError extends UserError {
  override name = "ExistingFilesError";
  constructor(
    readonly dir: string,
    readonly files: readonly string[],
  ) {
    super(
      `${files.join(", ")} ${files.length === 1 ? "exists" : "exist"} already in ${dir}, and init overwrites nothing: move ${files.length === 1 ? "it" : "them"} away and run init again, or init another directory (incident-sync init <dir>).`,
    );
  }
}

/** What `init` did, as `--format json` prints it. */
interface InitResult {
  readonly project: string;
  /** The kit added to a project there already, and nothing else. */
  readonly kitOnly: boolean;
  readonly dir: string;
  readonly language: "js" | "ts";
  readonly definitionsDir: string;
  readonly stacks: readonly string[];
  readonly written: { path: string; what: string }[];
  readonly gitignore: { added: string[] };
  readonly next: string[];
  readonly checklist: ChecklistItem[];
  /** Where the kit's page of the docs is for the person who ran init. */
  readonly kitDocs: string;
}

/**
 * Writes a working project into `dir` (Pulumi.yaml, the program, stack files, a catalog and an
 * example incident; with `--ci github` the kit and its checklist), overwriting nothing.
 */
export async function runInit(dir: string, flags: InitFlags, io: CommandIo): Promise<ExitCode> {
  const projectDir = path.resolve(io.cwd, dir);
  // A project that is there already (its Pulumi.yaml) gets the kit alone, in its own layout.
  const existing = flags.ci === "github" ? existingProject(projectDir) : undefined;
  const definitionsDir = existing?.definitionsDir ?? definitionsDirOf(flags.definitionsDir);
  const language = existing?.language ?? flags.language ?? (await askLanguage(io, flags)) ?? "js";
  const stacks = [...new Set(flags.stack ?? ["prod"])];
  if (isSelfManagedBackend(flags.backend)) {
    for (const stack of stacks) {
      const problem = selfManagedNameProblem(stack, `--backend ${flags.backend}`);
      if (problem !== undefined) throw new UsageError(`--stack ${problem}`);
    }
  }
  const layout: InitLayout = {
    project: existing?.project ?? flags.name ?? projectName(projectDir),
    language,
    definitionsDir,
    stacks,
    schemaDir: schemaDirFor(projectDir, definitionsDir),
  };
  const files = [
    ...(existing ? [] : projectFiles(layout)),
    ...(flags.ci === "github" ? kitFiles(layout) : []),
  ];
  const write: ProjectWrite = {
    create: files,
    hold: existing ? [] : [{ path: ".gitignore", lines: GITIGNORE_LINES }],
  };
  const refusals = checkProjectWrite(projectDir, write);
  if (refusals.length > 0 && refusals.every((refusal) => refusal.kind === "exists")) {
    throw new ExistingFilesError(
      dir,
      refusals.map((refusal) => refusal.path),
    );
  }
  const written = writeIntoProject(projectDir, write, "init");
  const added = written.added.flatMap((held) => held.lines);
  const result: InitResult = {
    project: layout.project,
    kitOnly: existing !== undefined,
    dir,
    language,
    definitionsDir,
    stacks,
    written: files.map(({ path: file, what }) => ({ path: file, what })),
    gitignore: { added },
    next: existing ? [] : nextSteps(projectDir, dir, definitionsDir),
    checklist: flags.ci === "github" ? kitChecklist(stacks, flags.backend) : [],
    kitDocs: docsPage("pipeline-kit.md", io.cwd),
  };
  io.stdout.write(flags.format === "json" ? jsonOutput(result) : initText(result));
  return ExitCode.Ok;
}

/**
 * The layout of the project in `projectDir` as its `Pulumi.yaml` declares it (name, program,
 * definitions directory); undefined when there is no `Pulumi.yaml`.
 */
function existingProject(
  projectDir: string,
): Pick<InitLayout, "project" | "language" | "definitionsDir"> | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(projectDir, "Pulumi.yaml"), "utf8");
  } catch {
    return undefined;
  }
  let declared: { name?: unknown; main?: unknown; config?: Record<string, unknown> } | null;
  try {
    declared = parse(text) as typeof declared;
  } catch {
    declared = null;
  }
  const setting = declared?.config?.[configKey("definitionsDir")] as
    | { value?: unknown; default?: unknown }
    | undefined;
  const dir = setting?.value ?? setting?.default;
  return {
    project: typeof declared?.name === "string" ? declared.name : projectName(projectDir),
    language: declared?.main === "index.ts" ? "ts" : "js",
    definitionsDir: definitionsDirOf(
      typeof dir === "string" ? dir : SETTINGS.definitionsDir.default,
    ),
  };
}

/** A definitions directory inside the project, written with `/`. */
function definitionsDirOf(given: string): string {
  const normal = path.posix.normalize(given.replaceAll("\\", "/")).replace(/\/+$/, "");
  if (path.posix.isAbsolute(normal) || normal === "." || normal.startsWith("..")) {
    throw new UsageError(
      `--definitions-dir ${given} must be a folder inside the project, such as incidents or status/incidents.`,
    );
  }
  return normal;
}

/** The project's name: its package.json's (without a scope), else its folder's, as Pulumi allows. */
function projectName(projectDir: string): string {
  let name: unknown;
  try {
    name = (
      JSON.parse(readFileSync(path.join(projectDir, "package.json"), "utf8")) as {
        name?: unknown;
      }
    ).name;
  } catch {
    name = undefined;
  }
  const raw = typeof name === "string" && name !== "" ? name : path.basename(projectDir);
  const cleaned = raw
    .replace(/^@[^/]*\//, "")
    .replace(/[^A-Za-z0-9_.-]+/g, "-")
    .replace(/^[-.]+|-+$/g, "");
  return cleaned === "" ? "incidents" : cleaned;
}

/** The commands to run next, the missing packages first. */
function nextSteps(projectDir: string, dir: string, definitionsDir: string): string[] {
  const missing = ["@pulumi/pulumi", "hono", "@hono/node-server"].filter(
    (name) => !existsSync(path.join(projectDir, "node_modules", name, "package.json")),
  );
  const inDir = dir === "." ? [] : [`cd ${dir}`];
  return [
    ...inDir,
    ...(missing.length > 0 ? [`npm install ${missing.join(" ")}`] : []),
    definitionsDir === SETTINGS.definitionsDir.default
      ? "npx incident-sync validate"
      : `npx incident-sync validate ${definitionsDir}`,
    "npx incident-sync up --emulator",
  ];
}

/** Asks for the program's language on a terminal; `undefined` when there is nobody to ask. */
async function askLanguage(io: CommandIo, flags: InitFlags): Promise<"js" | "ts" | undefined> {
  if (flags.format !== "text" || process.stdin.isTTY !== true || io.stderr.isTTY !== true) {
    return undefined;
  }
  const prompt = createInterface({ input: process.stdin, output: io.stderr });
  try {
    const answer = (await prompt.question("The program in JavaScript or TypeScript? (js/ts) [js] "))
      .trim()
      .toLowerCase();
    return answer === "ts" || answer === "typescript" ? "ts" : "js";
  } finally {
    prompt.close();
  }
}

function initText(result: InitResult): string {
  const width = Math.max(...result.written.map((file) => file.path.length));
  const lines = [
    result.kitOnly
      ? `Added the pipeline kit to the project in ${result.dir} (nothing else written):`
      : `Wrote a new incident-sync project in ${result.dir}:`,
    ...result.written.map((file) => `  ${file.path.padEnd(width)}  ${file.what}`),
  ];
  if (result.gitignore.added.length > 0) {
    lines.push(`  ${".gitignore".padEnd(width)}  added ${result.gitignore.added.join(" and ")}`);
  }
  if (result.next.length > 0) {
    lines.push("", "Next, try your definitions against a local emulator:");
    lines.push(...result.next.map((line) => `  ${line}`));
  }
  if (result.checklist.length > 0) {
    lines.push(
      "",
      `The pipeline kit needs these on GitHub (${result.kitDocs} says why each one):`,
      ...result.checklist.map((entry) => `  [ ] ${entry.item}`),
      "",
      `The commands that create them, run in the repository with ${variablesOf(result.checklist)}`,
      "set in the shell first (gh secret set asks for each secret's value):",
      "",
      ...result.checklist.flatMap((entry) => (entry.command ? [`  ${entry.command}`] : [])),
    );
  }
  return `${lines.join("\n")}\n`;
}

/** The shell variables the checklist's commands read, as a sentence. */
function variablesOf(checklist: readonly ChecklistItem[]): string {
  const names = [
    ...new Set(
      checklist.flatMap((entry) =>
        [...(entry.command ?? "").matchAll(/"\$(\w+)"/g)].map((match) => match[1] ?? ""),
      ),
    ),
  ];
  return names.length <= 1
    ? names.join("")
    : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}
