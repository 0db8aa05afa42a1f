import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runCli } from "./run-cli";

const ROOT = path.resolve(__dirname, "..", "..");
const scratch = mkdtempSync(path.join(tmpdir(), "incident-sync-init-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every file under `dir`, relative, sorted. */
function filesUnder(dir: string, prefix = ""): string[] {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? filesUnder(dir, path.join(prefix, entry.name))
        : [path.join(prefix, entry.name)],
    )
    .sort();
}

interface Workflow {
  on: Record<string, { paths?: string[] } | null>;
  jobs: Record<string, { steps: { run?: string; with?: Record<string, unknown> }[] }>;
}

describe("incident-sync init", () => {
  it("writes a working project into an empty directory: it validates, and its settings are this project's", async () => {
    const dir = path.join(scratch, "plain");
    const run = await runCli(["init", dir], scratch, {});
    expect(run.exitCode, run.stderr).toBe(0);
    expect(filesUnder(dir)).toEqual([
      ".gitignore",
      ".nvmrc",
      "Pulumi.prod.yaml",
      "Pulumi.yaml",
      "incidents/example.yaml",
      "incidents/services.yaml",
      "index.js",
    ]);
    expect(run.stdout.split("\n").slice(-4)).toEqual([
      "  npm install @pulumi/pulumi hono @hono/node-server",
      "  npx incident-sync validate",
      "  npx incident-sync up --emulator",
      "",
    ]);
    const validate = await runCli(["validate"], dir, {});
    expect(validate).toMatchObject({
      exitCode: 0,
      stdout: "incidents: 1 definition in 1 file and the services catalog, all valid.\n",
    });
    const project = parse(readFileSync(path.join(dir, "Pulumi.yaml"), "utf8")) as {
      name: string;
      main: string;
      config: Record<string, unknown>;
    };
    const ours = parse(readFileSync(path.join(ROOT, "Pulumi.yaml"), "utf8")) as {
      config: Record<string, { default?: unknown; description: string }>;
    };
    expect(project).toMatchObject({ name: "plain", main: "index.js" });
    // Every setting with a default, as this project declares it; Pulumi lets a project give
    // another namespace's keys a value and a description (the connection's are per stack).
    const withDefaults = Object.entries(ours.config).filter(
      ([, declared]) => declared.default !== undefined,
    );
    expect(project.config).toEqual(
      Object.fromEntries(
        withDefaults.map(([key, declared]) => [
          key,
          { value: declared.default, description: declared.description },
        ]),
      ),
    );
    // `pulumi config set` rewrites a stack file without its comments: it gets none, and how to
    // set the connection is in Pulumi.yaml's comment, which no command rewrites.
    expect(readFileSync(path.join(dir, "Pulumi.prod.yaml"), "utf8")).toBe("config: {}\n");
    const projectText = readFileSync(path.join(dir, "Pulumi.yaml"), "utf8");
    expect(projectText).toContain("  #   incident-sync:apiKey      the API key, a secret");
    for (const line of [
      "pulumi config set incident-sync:baseUrl https://api.example.com --stack <stack>",
      "pulumi config set incident-sync:accountId <account id> --stack <stack>",
      `printf '%s' "$MONITORING_API_KEY" | pulumi config set --secret incident-sync:apiKey --stack <stack>`,
    ]) {
      expect(projectText).toContain(`  #   ${line}\n`);
    }
    expect(readFileSync(path.join(dir, "index.js"), "utf8")).toContain(
      'module.exports = require("incident-sync/program");',
    );
    expect(readFileSync(path.join(dir, ".nvmrc"), "utf8")).toBe("24\n");
    expect(readFileSync(path.join(dir, ".gitignore"), "utf8")).toBe(
      "node_modules/\n.incident-sync/\n",
    );
    // The editor's schema is the installed package's, from where the definitions are.
    expect(readFileSync(path.join(dir, "incidents", "example.yaml"), "utf8")).toMatch(
      /^# yaml-language-server: \$schema=\.\.\/node_modules\/incident-sync\/schema\/incident\.schema\.json\n/,
    );
  });

  it("refuses to overwrite anything, naming every file in the way, and writes none", async () => {
    const dir = path.join(scratch, "taken");
    mkdirSync(path.join(dir, "incidents"), { recursive: true });
    writeFileSync(path.join(dir, "Pulumi.yaml"), "name: mine\nruntime: nodejs\n");
    writeFileSync(path.join(dir, "incidents", "services.yaml"), "svc-mine: Mine\n");
    const run = await runCli(["init", "--format", "json"], dir, {});
    expect(run.exitCode).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      error: {
        type: "ExistingFilesError",
        message:
          "Pulumi.yaml, incidents/services.yaml exist already in ., and init overwrites nothing: move them away and run init again, or init another directory (incident-sync init <dir>).",
      },
    });
    expect(filesUnder(dir)).toEqual(["Pulumi.yaml", "incidents/services.yaml"]);
    expect(readFileSync(path.join(dir, "Pulumi.yaml"), "utf8")).toBe(
      "name: mine\nruntime: nodejs\n",
    );
  });

  it("with --ci github adapts the kit to the layout (definitions folder, program) and prints what to create on GitHub, with the gh commands", async () => {
    const dir = path.join(scratch, "kit");
    mkdirSync(dir);
    writeFileSync(path.join(dir, ".gitignore"), "dist");
    writeFileSync(path.join(dir, "package.json"), '{ "name": "@acme/status-page" }\n');
    const run = await runCli(
      [
        "init",
        "--ci",
        "github",
        "--language",
        "ts",
        "--definitions-dir",
        "status/incidents",
        "--stack",
        "staging",
        "--stack",
        "acme/prod",
        "--format",
        "json",
      ],
      dir,
      {},
    );
    expect(run.exitCode, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as {
      project: string;
      written: { path: string }[];
      gitignore: { added: string[] };
      next: string[];
      checklist: { item: string; command?: string }[];
    };
    expect(result.project).toBe("status-page");
    expect(result.written.map((file) => file.path)).toEqual([
      "Pulumi.yaml",
      "index.ts",
      "Pulumi.staging.yaml",
      "Pulumi.prod.yaml",
      ".nvmrc",
      "status/incidents/services.yaml",
      "status/incidents/example.yaml",
      ".github/workflows/incidents-apply.yml",
      ".github/workflows/incidents-comment.yml",
      ".github/workflows/incidents-drift.yml",
      ".github/workflows/incidents-pull-request.yml",
      ".github/workflows/incidents-state.yml",
    ]);
    expect(readFileSync(path.join(dir, ".gitignore"), "utf8")).toBe(
      "dist\nnode_modules/\n.incident-sync/\n",
    );
    expect(result.next).toContain("npx incident-sync validate status/incidents");
    expect(
      (parse(readFileSync(path.join(dir, "Pulumi.yaml"), "utf8")) as Record<string, unknown>)
        .config,
    ).toMatchObject({ "incident-sync:definitionsDir": { value: "status/incidents" } });

    for (const name of ["incidents-apply.yml", "incidents-pull-request.yml"]) {
      const flow = parse(
        readFileSync(path.join(dir, ".github", "workflows", name), "utf8"),
      ) as Workflow;
      const trigger = flow.on.push ?? flow.on.pull_request;
      expect(trigger?.paths, name).toEqual(
        expect.arrayContaining(["status/incidents/**", "index.ts", ".nvmrc", "Pulumi*.yaml"]),
      );
      expect(trigger?.paths, name).not.toContain("incidents/**");
      expect(trigger?.paths, name).not.toContain("index.js");
    }
    const commands = filesUnder(path.join(dir, ".github", "workflows"))
      .map((name) => readFileSync(path.join(dir, ".github", "workflows", name), "utf8"))
      .join("\n")
      .split("\n")
      .filter((line) => /npx incident-sync (validate|plan|drift) /.test(line));
    expect(commands.length).toBeGreaterThanOrEqual(6);
    for (const line of commands) {
      expect(line).toMatch(/npx incident-sync (validate|plan|drift) status\/incidents /);
    }

    const items = result.checklist.map((entry) => entry.item);
    expect(items[0]).toBe(
      'repository variable INCIDENT_STACKS = ["staging","acme/prod"], the stacks in the order they are applied',
    );
    for (const environment of [
      "incidents-staging",
      "incidents-staging-checks",
      "incidents-staging-preview",
      "incidents-acme/prod",
      "incidents-acme/prod-checks",
      "incidents-acme/prod-preview",
    ]) {
      expect(items.filter((item) => item.startsWith(`environment ${environment},`))).toHaveLength(
        1,
      );
      expect(items).toContain(`  ${environment}: secret MONITORING_API_KEY`);
      expect(items).toContain(`  ${environment}: variable MONITORING_API_URL`);
    }
    const gh = result.checklist.flatMap((entry) => (entry.command ? [entry.command] : []));
    expect(gh).toContain('gh variable set INCIDENT_STACKS --body \'["staging","acme/prod"]\'');
    expect(gh).toContain(
      "gh api --method PUT repos/{owner}/{repo}/environments/incidents-acme%2Fprod-preview",
    );
    expect(gh).toContain("pulumi stack init acme/prod");
    // A secret's value is asked for by gh, never written on a command line.
    for (const command of gh.filter((line) => line.startsWith("gh secret set"))) {
      expect(command).toMatch(/^gh secret set [A-Z_]+ --env '[^']+'$/);
    }
  });

  it("adds only the kit to a project init made, in its layout, overwriting nothing; a kit file there stops it, named", async () => {
    const dir = path.join(scratch, "kit-later");
    const made = await runCli(
      ["init", dir, "--language", "ts", "--definitions-dir", "status/incidents"],
      scratch,
      {},
    );
    expect(made.exitCode, made.stderr).toBe(0);
    const before = Object.fromEntries(
      filesUnder(dir).map((file) => [file, readFileSync(path.join(dir, file), "utf8")]),
    );

    const run = await runCli(["init", "--ci", "github", "--stack", "staging"], dir, {});
    expect(run.exitCode, run.stderr).toBe(0);
    const kit = filesUnder(dir).filter((file) => !(file in before));
    expect(kit).toEqual([
      ".github/workflows/incidents-apply.yml",
      ".github/workflows/incidents-comment.yml",
      ".github/workflows/incidents-drift.yml",
      ".github/workflows/incidents-pull-request.yml",
      ".github/workflows/incidents-state.yml",
    ]);
    for (const [file, text] of Object.entries(before)) {
      expect(readFileSync(path.join(dir, file), "utf8"), file).toBe(text);
    }
    expect(run.stdout.split("\n")[0]).toBe(
      "Added the pipeline kit to the project in . (nothing else written):",
    );
    expect(run.stdout).not.toContain("Next, try your definitions");
    expect(run.stdout).toContain("  [ ] stack staging in the state backend");
    // The kit follows the project's layout, as Pulumi.yaml declares it, not the flags' defaults.
    const flow = parse(
      readFileSync(path.join(dir, ".github", "workflows", "incidents-pull-request.yml"), "utf8"),
    ) as Workflow;
    expect(flow.on.pull_request?.paths).toEqual(
      expect.arrayContaining(["status/incidents/**", "index.ts"]),
    );

    const again = await runCli(["init", "--ci", "github", "--format", "json"], dir, {});
    expect(again.exitCode).toBe(1);
    expect(JSON.parse(again.stdout)).toEqual({
      error: {
        type: "ExistingFilesError",
        message: `${kit.join(", ")} exist already in ., and init overwrites nothing: move them away and run init again, or init another directory (incident-sync init <dir>).`,
      },
    });
  });

  it("lists a self-managed backend's passphrase, storage keys and backend URL in the checklist", async () => {
    const dir = path.join(scratch, "self-managed");
    const run = await runCli(
      ["init", dir, "--ci", "github", "--backend", "s3://incident-state", "--format", "json"],
      scratch,
      {},
    );
    expect(run.exitCode, run.stderr).toBe(0);
    const items = (JSON.parse(run.stdout) as { checklist: { item: string }[] }).checklist.map(
      (entry) => entry.item,
    );
    expect(items).toContain("  incidents-prod: variable PULUMI_BACKEND_URL");
    expect(items).toContain("  incidents-prod: secret PULUMI_CONFIG_PASSPHRASE");
    expect(items).toContain("  incidents-prod: secret AWS_SECRET_ACCESS_KEY");
    expect(items).not.toContain("  incidents-prod: secret PULUMI_ACCESS_TOKEN");
  });

  it("names only the secrets the backend needs: Pulumi Cloud its token, s3:// the AWS keys, file:// the passphrase alone", async () => {
    const secretsFor = async (name: string, backend: string[]) => {
      const run = await runCli(
        ["init", path.join(scratch, name), "--ci", "github", ...backend, "--format", "json"],
        scratch,
        {},
      );
      expect(run.exitCode, run.stderr).toBe(0);
      const { checklist } = JSON.parse(run.stdout) as { checklist: { item: string }[] };
      return checklist
        .map((entry) => /^ {2}incidents-prod: (secret|variable) (\w+)$/.exec(entry.item))
        .flatMap((match) => (match ? [`${match[1]} ${match[2]}`] : []));
    };
    expect(await secretsFor("cloud-secrets", [])).toEqual([
      "variable MONITORING_API_URL",
      "variable MONITORING_ACCOUNT_ID",
      "secret MONITORING_API_KEY",
      "secret PULUMI_ACCESS_TOKEN",
    ]);
    expect(await secretsFor("s3-secrets", ["--backend", "s3://incident-state"])).toEqual([
      "variable MONITORING_API_URL",
      "variable MONITORING_ACCOUNT_ID",
      "variable PULUMI_BACKEND_URL",
      "secret MONITORING_API_KEY",
      "secret PULUMI_CONFIG_PASSPHRASE",
      "secret AWS_ACCESS_KEY_ID",
      "secret AWS_SECRET_ACCESS_KEY",
    ]);
    expect(await secretsFor("file-secrets", ["--backend", "file:///var/state"])).toEqual([
      "variable MONITORING_API_URL",
      "variable MONITORING_ACCOUNT_ID",
      "variable PULUMI_BACKEND_URL",
      "secret MONITORING_API_KEY",
      "secret PULUMI_CONFIG_PASSPHRASE",
    ]);
  });

  it("leaves a linked .gitignore's target untouched: it refuses the link and writes nothing", async () => {
    const dir = path.join(scratch, "linked-gitignore");
    const elsewhere = path.join(scratch, "elsewhere-gitignore");
    mkdirSync(dir);
    writeFileSync(elsewhere, "someone else's\n");
    symlinkSync(elsewhere, path.join(dir, ".gitignore"));
    const run = await runCli(["init", "--format", "json"], dir, {});
    expect(run.exitCode).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      error: {
        type: "ProjectWriteError",
        message: `init wrote nothing: .gitignore is a symbolic link. It writes nothing through a symbolic link or outside ${dir}: move it away, or replace a link with the real folder or file, and run init again.`,
      },
    });
    expect(readFileSync(elsewhere, "utf8")).toBe("someone else's\n");
    expect(filesUnder(dir)).toEqual([".gitignore"]);
  });

  it("writes nothing through a linked incidents/ or .github/workflows, naming each link", async () => {
    const dir = path.join(scratch, "linked-folders");
    const elsewhere = path.join(scratch, "elsewhere-folders");
    mkdirSync(path.join(elsewhere, "incidents"), { recursive: true });
    mkdirSync(path.join(elsewhere, "workflows"));
    mkdirSync(path.join(dir, ".github"), { recursive: true });
    symlinkSync(path.join(elsewhere, "incidents"), path.join(dir, "incidents"));
    symlinkSync(path.join(elsewhere, "workflows"), path.join(dir, ".github", "workflows"));
    const run = await runCli(["init", "--ci", "github", "--language", "js"], dir, {});
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe(
      `incident-sync init: init wrote nothing: incidents is a symbolic link, and incidents/services.yaml would be written through it; .github/workflows is a symbolic link, and .github/workflows/incidents-apply.yml would be written through it. It writes nothing through a symbolic link or outside ${dir}: move each away, or replace a link with the real folder or file, and run init again.\n`,
    );
    expect(readdirSync(path.join(elsewhere, "incidents"))).toEqual([]);
    expect(readdirSync(path.join(elsewhere, "workflows"))).toEqual([]);
    expect(filesUnder(dir)).toEqual([".github/workflows", "incidents"]);
  });

  it("refuses a dangling link at incidents/example.yaml before it writes any file", async () => {
    const dir = path.join(scratch, "dangling");
    mkdirSync(path.join(dir, "incidents"), { recursive: true });
    symlinkSync(path.join(scratch, "nowhere.yaml"), path.join(dir, "incidents", "example.yaml"));
    const run = await runCli(["init"], dir, {});
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe(
      `incident-sync init: init wrote nothing: incidents/example.yaml is a symbolic link. It writes nothing through a symbolic link or outside ${dir}: move it away, or replace a link with the real folder or file, and run init again.\n`,
    );
    expect(filesUnder(dir)).toEqual(["incidents/example.yaml"]);
    expect(lstatSync(path.join(dir, "incidents", "example.yaml")).isSymbolicLink()).toBe(true);
  });

  it("refuses a definitions folder outside the project and a stack name Pulumi cannot have", async () => {
    const outside = await runCli(["init", "x", "--definitions-dir", "../elsewhere"], scratch, {});
    expect(outside.exitCode).toBe(1);
    expect(outside.stderr).toBe(
      "incident-sync init: --definitions-dir ../elsewhere must be a folder inside the project, such as incidents or status/incidents.\n",
    );
    const stack = await runCli(["init", "y", "--stack", "a/b/c/d"], scratch, {});
    expect(stack.exitCode).toBe(1);
    expect(stack.stderr).toContain("option '--stack <name>' argument 'a/b/c/d' is invalid.");
  });

  it("refuses an organization's stack on a self-managed backend, in its own words, before writing anything", async () => {
    const dir = path.join(scratch, "s3-acme");
    const run = await runCli(
      ["init", dir, "--ci", "github", "--backend", "s3://incident-state", "--stack", "acme/prod"],
      scratch,
      {},
    );
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(
      'incident-sync init: --stack "acme/prod" names the organization acme, but --backend s3://incident-state is a self-managed backend, which keeps every stack in one organization, "organization": write "prod" (or "organization/prod").',
    );
    expect(run.stderr).not.toContain("organization name must be");
    expect(() => readdirSync(dir)).toThrow();
    // On Pulumi Cloud the same name is an organization's stack.
    const cloud = await runCli(
      ["init", dir, "--ci", "github", "--stack", "acme/prod"],
      scratch,
      {},
    );
    expect(cloud.exitCode, cloud.stderr).toBe(0);
  });

  it("asks to protect main, requiring the pull request's checks by their jobs' names, and points at a page of the docs that exists", async () => {
    const dir = path.join(scratch, "protected");
    const run = await runCli(["init", dir, "--ci", "github", "--format", "json"], scratch, {});
    expect(run.exitCode, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as {
      checklist: { item: string; command?: string }[];
      kitDocs: string;
    };
    const protection = result.checklist.find((entry) =>
      entry.item.startsWith("branch protection on main"),
    );
    expect(protection?.command).toMatch(
      /^gh api --method PUT repos\/\{owner\}\/\{repo\}\/branches\/main\/protection /,
    );
    const workflow = parse(
      readFileSync(path.join(dir, ".github", "workflows", "incidents-pull-request.yml"), "utf8"),
    ) as { jobs: Record<string, { name: string }> };
    for (const job of ["validate", "plan"]) {
      const name = workflow.jobs[job]?.name ?? "";
      expect(protection?.item).toContain(`"${name}"`);
      expect(protection?.command).toContain(`required_status_checks[contexts][]=${name}'`);
    }
    // Run from this checkout, the docs are outside the project: the repository's page.
    expect(result.kitDocs).toBe(
      "https://github.com/incident-sync/incident-sync/blob/main/docs/pipeline-kit.md",
    );
    const text = await runCli(
      ["init", path.join(scratch, "protected-text"), "--ci", "github"],
      scratch,
      {},
    );
    expect(text.stdout).toContain(`(${result.kitDocs} says why each one)`);
    expect(text.stdout).not.toContain("(docs/pipeline-kit.md says why");
  });
});
