import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isSelfManagedBackend } from "../../definitions/backend";
import { packageRoot } from "../../package-root";
import { type InitFile, type InitLayout, programFile } from "./project-files";

/** Where the kit's workflows are in the installed package. */
export function kitDir(): string {
  return join(packageRoot(), "examples", "github", "workflows");
}

/**
 * The kit's workflows, written for the default layout (`incidents/`, `index.js`), adapted to
 * a project's: its definitions directory in the path filters and on every command line that
 * names it, and its program in the path filters.
 */
export function adaptKit(
  text: string,
  layout: Pick<InitLayout, "definitionsDir" | "language">,
): string {
  const dir = layout.definitionsDir;
  return text
    .replaceAll('- "incidents/**"', `- "${dir}/**"`)
    .replaceAll('- "index.js"', `- "${programFile(layout)}"`)
    .replace(/(npx incident-sync (?:validate|plan|drift)) incidents /g, `$1 ${dir} `)
    .replaceAll("differs from incidents/", `differs from ${dir}/`);
}

/** The kit's workflows for a project, as files under `.github/workflows/`. */
export function kitFiles(layout: InitLayout): InitFile[] {
  const dir = kitDir();
  return readdirSync(dir)
    .filter((name) => name.endsWith(".yml"))
    .sort()
    .map((name) => ({
      path: `.github/workflows/${name}`,
      what: `the pipeline kit (${name.replace(/^incidents-|\.yml$/g, "")})`,
      text: adaptKit(readFileSync(join(dir, name), "utf8"), layout),
    }));
}

/** The pull request's checks, by their jobs' names in incidents-pull-request.yml. */
const VALIDATE_CHECK = "validate definitions";
const PLAN_CHECK = "plan (comment and summary)";

/**
 * The secrets of the stacks' state backend, from its URL: Pulumi Cloud's token, or a
 * self-managed backend's passphrase and its storage's credentials (a `file://` one has none).
 */
export function backendSecrets(backendUrl: string): string[] {
  if (!isSelfManagedBackend(backendUrl)) return ["PULUMI_ACCESS_TOKEN"];
  const scheme = /^([a-z0-9+.-]+):\/\//i.exec(backendUrl)?.[1]?.toLowerCase();
  const storage = STORAGE_SECRETS[scheme ?? ""] ?? [];
  return ["PULUMI_CONFIG_PASSPHRASE", ...storage];
}

/** What each self-managed storage reads its credentials from, as Pulumi documents them. */
const STORAGE_SECRETS: Record<string, string[]> = {
  s3: ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"],
  gs: ["GOOGLE_CREDENTIALS"],
  azblob: ["AZURE_STORAGE_ACCOUNT", "AZURE_STORAGE_KEY"],
};

/** One thing to create on GitHub, and the `gh` command that creates it (none for a click). */
export interface ChecklistItem {
  readonly item: string;
  readonly command?: string;
}

const environments = (stack: string) => [
  {
    name: `incidents-${stack}`,
    for: "the apply on main",
    branches: true,
    reviewers: "required reviewers, to gate the apply (the promotion to this stack)",
  },
  {
    name: `incidents-${stack}-checks`,
    for: "the scheduled drift and state checks",
    branches: true,
    reviewers: undefined,
  },
  {
    name: `incidents-${stack}-preview`,
    for: "the pull request's preview, which runs the branch's code",
    branches: false,
    reviewers: "required reviewers, so no branch's code reads its key unseen",
  },
];

/**
 * What the kit needs on GitHub, in order, each with its `gh` command; a secret's reads the
 * value from the terminal, never the command line.
 */
export function kitChecklist(stacks: readonly string[], backendUrl: string): ChecklistItem[] {
  const items: ChecklistItem[] = [
    {
      item: `repository variable INCIDENT_STACKS = ${JSON.stringify(stacks)}, the stacks in the order they are applied`,
      command: `gh variable set INCIDENT_STACKS --body '${JSON.stringify(stacks)}'`,
    },
    {
      item: `branch protection on main: changes only through pull requests, with an approving review and the checks "${VALIDATE_CHECK}" and "${PLAN_CHECK}" passed; the apply runs what reaches main, and the environments below deploy from protected branches only`,
      command: `gh api --method PUT repos/{owner}/{repo}/branches/main/protection -F 'required_status_checks[strict]=true' -f 'required_status_checks[contexts][]=${VALIDATE_CHECK}' -f 'required_status_checks[contexts][]=${PLAN_CHECK}' -F enforce_admins=true -F 'required_pull_request_reviews[required_approving_review_count]=1' -F restrictions=null`,
    },
  ];
  for (const stack of stacks) {
    items.push({
      item: `stack ${stack} in the state backend: only up creates a stack, and the pull request's preview needs it first`,
      command: `pulumi stack init ${stack}`,
    });
    for (const environment of environments(stack)) {
      const env = environment.name;
      const path = `repos/{owner}/{repo}/environments/${encodeURIComponent(env)}`;
      items.push({
        item: `environment ${env}, for ${environment.for}${environment.branches ? "; deployments from protected branches (main) only" : ""}`,
        command: environment.branches
          ? `gh api --method PUT ${path} -F 'deployment_branch_policy[protected_branches]=true' -F 'deployment_branch_policy[custom_branch_policies]=false'`
          : `gh api --method PUT ${path}`,
      });
      if (environment.reviewers !== undefined) {
        items.push({
          item: `  ${env}: ${environment.reviewers} (Settings → Environments → ${env})`,
        });
      }
      const variables = ["MONITORING_API_URL", "MONITORING_ACCOUNT_ID"];
      if (isSelfManagedBackend(backendUrl)) variables.push("PULUMI_BACKEND_URL");
      for (const variable of variables) {
        items.push({
          item: `  ${env}: variable ${variable}`,
          command: `gh variable set ${variable} --env '${env}' --body "$${variable}"`,
        });
      }
      for (const secret of ["MONITORING_API_KEY", ...backendSecrets(backendUrl)]) {
        items.push({
          item: `  ${env}: secret ${secret}`,
          command: `gh secret set ${secret} --env '${env}'`,
        });
      }
    }
  }
  return items;
}
