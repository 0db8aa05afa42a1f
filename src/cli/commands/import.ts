import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { createClient } from "../../api";
import { CATALOG_FILES, projectOf, readServiceNames } from "../../definitions";
import { InvalidDefinitionsError } from "../../definitions/invalid-definitions-error";
import { plural } from "../../plural";
import { writeIntoProject } from "../../project-write";
import { safeLine } from "../../safe-text";
import { resolveApiConnection } from "../api-connection";
import type { ApiFlags } from "../api-options";
import { ExitCode } from "../exit-codes";
import { jsonOutput } from "../formats";
import { type ImportPlan, type ProjectNow, planImport } from "../import/import-plan";
import { type ReadProgress, readService, type ServiceRead } from "../import/read-service";
import type { CommandIo } from "../io";
import { schemaDirFor } from "../schema-dir";
import { UsageError } from "../usage-error";
import { DefinitionsDir } from "./definitions-dir";
import type { ImportFormat } from "./import-options";

export interface ImportOptions extends ApiFlags {
  /** The definitions directory to write into, relative to the working directory. */
  readonly dir: string;
  /** Resolved incidents too. */
  readonly all: boolean;
  /** Exit 0 though some incidents were left out, as no valid definition can hold them. */
  readonly allowPartial: boolean;
  readonly format: ImportFormat;
}

/** Problems of a definitions directory that only say it has no definitions yet. */
const NOTHING_YET = new Set(["missing-directory", "empty-directory"]);

/**
 * Reads the account's services, status pages and incidents, and writes the catalog and a
 * definition per incident the directory does not define yet (`planImport`), overwriting nothing.
 * Exit 1 when an incident was left out, unless `allowPartial`.
 */
export async function runImport(options: ImportOptions, io: CommandIo): Promise<ExitCode> {
  const dir = new DefinitionsDir(io, options.dir);
  const root = projectOf(dir.absolute)?.dir ?? io.cwd;
  const fromRoot = path.relative(root, dir.absolute);
  if (fromRoot.startsWith("..") || path.isAbsolute(fromRoot)) {
    throw new UsageError(
      `${options.dir} is outside the project (${root}): import writes only inside it; name a directory in it, such as incidents.`,
    );
  }
  const connection = resolveApiConnection(options, io.env, { from: dir.absolute });
  const now = await projectNow(dir, root, fromRoot);
  const read = await readService(createClient(connection), progressOn(io));
  const plan = planImport(read, now, { all: options.all });
  writeIntoProject(root, { create: plan.files }, "import");
  const result = importResult(options, { root, cwd: io.cwd }, read, plan);
  io.stdout.write(options.format === "json" ? jsonOutput(result) : importText(result));
  const leftOut = result.notImported.length;
  if (leftOut === 0 || options.allowPartial) return ExitCode.Ok;
  io.stderr.write(
    `incident-sync import: ${plural(leftOut, "incident")} not imported, as no valid definition can hold ${leftOut === 1 ? "it" : "them"} (the report says why); the files written pass validate. Fix ${leftOut === 1 ? "it" : "them"} on the status page and import again, or pass --allow-partial to accept the others alone.\n`,
  );
  return ExitCode.Failure;
}

/** What the directory holds: its files, the incidents it defines, its catalog. */
async function projectNow(
  dir: DefinitionsDir,
  root: string,
  fromRoot: string,
): Promise<ProjectNow> {
  const loaded = await dir.load();
  const problems = loaded.problems.filter((problem) => !NOTHING_YET.has(problem.code));
  if (problems.length > 0) throw new InvalidDefinitionsError(dir.given, problems);
  const files = existsSync(dir.absolute) ? readdirSync(dir.absolute) : [];
  const hasCatalog = CATALOG_FILES.some((file) => files.includes(file));
  const defined = new Map(
    loaded.definitions.flatMap(({ definition, file }) =>
      definition.id === undefined ? [] : [[definition.id, file] as const],
    ),
  );
  const posix = fromRoot.split(path.sep).join("/") || ".";
  return {
    dir: posix,
    files,
    defined,
    catalog: hasCatalog ? await readServiceNames(dir.absolute) : undefined,
    schemaDir: schemaDirFor(root, fromRoot),
  };
}

/**
 * Progress on stderr: on a terminal one line that grows as pages arrive, elsewhere (a CI log)
 * a line per list once it is read.
 */
function progressOn(io: CommandIo): ReadProgress {
  const terminal = io.stderr.isTTY === true;
  const show = (line: string, done: boolean) => {
    if (done) io.stderr.write(`${terminal ? "\r\u001B[K" : ""}Read ${line}.\n`);
    else if (terminal) io.stderr.write(`\r\u001B[KReading ${line}`);
  };
  return {
    list: (what, count, pages, done) =>
      show(`${plural(count, what.replace(/s$/, ""))} (${plural(pages, "page")})`, done),
    each: (count, total, done) =>
      show(`${count} of ${plural(total, "incident")} listed without their updates`, done),
  };
}

/** What `import` did, as `--format json` prints it. */
function importResult(
  options: ImportOptions,
  paths: { root: string; cwd: string },
  read: ServiceRead,
  plan: ImportPlan,
) {
  const { root, cwd } = paths;
  const shown = (file: string) => path.relative(cwd, path.join(root, file)) || file;
  return {
    dir: options.dir,
    read: {
      services: read.services.length,
      statusPages: read.statusPages.length,
      incidents: read.incidents.length + read.unreadable.length,
    },
    written: [
      ...(plan.catalog
        ? [{ path: shown(plan.catalog.path), services: plan.catalog.services }]
        : []),
      ...plan.incidents.map((incident) => ({ ...incident, path: shown(incident.path) })),
    ],
    catalogKept: plan.catalog === undefined,
    alreadyDefined: plan.alreadyDefined,
    resolvedLeftOut: plan.resolvedLeftOut,
    notImported: [...read.unreadable, ...plan.refused],
    notes: [...read.notes, ...plan.notes],
  };
}

type ImportResult = ReturnType<typeof importResult>;

function importText(result: ImportResult): string {
  const { read } = result;
  const lines = [
    `Read ${plural(read.services, "service")}, ${plural(read.statusPages, "status page")} and ${plural(read.incidents, "incident")}.`,
  ];
  if (result.written.length === 0) {
    lines.push(`Nothing to write in ${result.dir}: ${nothingWhy(result)}.`);
  } else {
    lines.push(`Wrote ${plural(result.written.length, "file")}:`);
    const width = Math.max(...result.written.map((file) => file.path.length));
    for (const file of result.written) {
      const what =
        "incidentId" in file
          ? `${file.incidentId}, ${file.status}, ${plural(file.updates, "update")}`
          : `the services catalog, ${plural(file.services, "service")}`;
      lines.push(safeLine(`  ${file.path.padEnd(width)}  ${what}`));
    }
  }
  if (result.catalogKept && result.written.length > 0) {
    lines.push(`Kept the services catalog of ${result.dir} as it is.`);
  }
  if (result.resolvedLeftOut > 0) {
    lines.push(
      `Left out ${plural(result.resolvedLeftOut, "resolved incident")}: --all imports them too.`,
    );
  }
  if (result.alreadyDefined.length > 0) {
    lines.push(
      `Already defined, not written again: ${plural(result.alreadyDefined.length, "incident")}.`,
    );
  }
  if (result.notImported.length > 0) {
    lines.push(`Not imported, as no valid definition can hold them:`);
    for (const item of result.notImported) {
      lines.push(safeLine(`  ${item.incidentId} ${JSON.stringify(item.name)}: ${item.reason}`));
    }
  }
  for (const note of result.notes) lines.push(safeLine(`Note: ${note}`));
  if (result.written.length > 0) {
    lines.push(
      "",
      "Next, check them, commit them, and let up adopt them:",
      `  npx incident-sync validate ${result.dir}`,
      `  git add ${result.dir} && git commit -m "Our status page, imported"`,
    );
  }
  return `${lines.join("\n")}\n`;
}

function nothingWhy(result: ImportResult): string {
  const reasons = [
    result.alreadyDefined.length > 0 ? "every incident is defined already" : undefined,
    result.resolvedLeftOut > 0 ? "the resolved ones are left out" : undefined,
    result.catalogKept ? "its services catalog is kept" : undefined,
  ].filter(Boolean);
  return reasons.length > 0 ? reasons.join(", ") : "the account has no incident to import";
}
