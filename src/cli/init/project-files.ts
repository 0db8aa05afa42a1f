import { stringify } from "yaml";
import { bareStackName } from "../../definitions/stack-name";
import { SETTINGS } from "../../settings/catalog";

/** What `incident-sync init` sets up: the team's choices, with their defaults applied. */
export interface InitLayout {
  /** The Pulumi project's name. */
  readonly project: string;
  /** The program's language: `index.js` or `index.ts`. */
  readonly language: "js" | "ts";
  /** The definitions directory, relative to the project, with `/` separators. */
  readonly definitionsDir: string;
  /** The stacks to prepare, as Pulumi names them, in the order they are applied. */
  readonly stacks: readonly string[];
  /** The schema folder of the installed package, relative to the definitions directory. */
  readonly schemaDir: string;
}

/** A file `init` writes, relative to the project directory. */
export interface InitFile {
  readonly path: string;
  readonly text: string;
  /** What it is, in a few words, for the list `init` prints. */
  readonly what: string;
}

/** The program file of a layout. */
export function programFile(layout: Pick<InitLayout, "language">): string {
  return layout.language === "ts" ? "index.ts" : "index.js";
}

/**
 * Each setting with a default declared in `Pulumi.yaml` with the catalog's default and what it
 * does (Pulumi allows no type there); test/cli/init.test.ts holds them to ours.
 */
function settingDeclarations(definitionsDir: string): Record<string, Record<string, unknown>> {
  const {
    retries,
    rateLimit,
    concurrency,
    enforce,
    onPageChange,
    readBack,
    strictEvidence,
    outputs,
  } = SETTINGS;
  const count = (n: number) => n.toLocaleString("en-US");
  return {
    "incident-sync:definitionsDir": {
      value: definitionsDir,
      description:
        "Definitions directory, relative to the project directory (where Pulumi.yaml is).",
    },
    "incident-sync:retries": {
      value: retries.default,
      description: `Retries per call on 502, 503, 504, timeouts and network failures (${retries.min} to ${retries.max}); 429s are waited out apart.`,
    },
    "incident-sync:rateLimit": {
      value: rateLimit.default,
      description: `Requests per minute for all this machine sends with the key, shared by the program, the provider and reports (${rateLimit.min} to ${count(rateLimit.max)}).`,
    },
    "incident-sync:concurrency": {
      value: concurrency.default,
      description: `Calls in flight, per client (${concurrency.min} to ${concurrency.max}).`,
    },
    "incident-sync:enforce": {
      value: enforce.default,
      description:
        "observed: apply what git or the status page changed; always: apply every incident on every up.",
    },
    "incident-sync:onPageChange": {
      value: onPageChange.default,
      description:
        "A name, severity or services changed on the status page since the last apply: revert puts git's back; refuse fails that incident (exit 3) and leaves the page as it is.",
    },
    "incident-sync:readBack": {
      value: readBack.default,
      description: "Which incidents every run reads back: all, or open (only those declared open).",
    },
    "incident-sync:strictEvidence": {
      value: (strictEvidence.default as string) === "true",
      description:
        "true: an evidence heartbeat or check that does not exist fails the run instead of warning.",
    },
    "incident-sync:outputs": {
      value: outputs.default,
      description:
        "Which stack outputs every up exports and prints: summary (counts, drift, evidence; a few KB), or full (also every incident and its updates).",
    },
  };
}

/**
 * What each stack sets for itself, in the words of `Pulumi.yaml`'s comment: here, because
 * `pulumi config set` rewrites a `Pulumi.<stack>.yaml` without its comments.
 */
const PER_STACK = `  # Each stack sets these in its Pulumi.<stack>.yaml, with pulumi config set:
  #   incident-sync:baseUrl     the monitoring API's base URL
  #   incident-sync:accountId   the account, sent as x-service-account
  #   incident-sync:apiKey      the API key, a secret, from an environment variable (stdin),
  #                             never on the command line
  # as in
  #   pulumi config set incident-sync:baseUrl https://api.example.com --stack <stack>
  #   pulumi config set incident-sync:accountId <account id> --stack <stack>
  #   printf '%s' "$MONITORING_API_KEY" | pulumi config set --secret incident-sync:apiKey --stack <stack>
  # The other settings, with the defaults incident-sync applies: change one here for every
  # stack, or in a Pulumi.<stack>.yaml for that stack alone.
`;

/** `Pulumi.yaml`: the project, its program and every setting declared. */
function pulumiYaml(layout: InitLayout): InitFile {
  const body = stringify(
    {
      name: layout.project,
      description: "Status-page incidents declared in YAML, applied with incident-sync.",
      runtime: { name: "nodejs", options: { packagemanager: "npm" } },
      main: programFile(layout),
      config: settingDeclarations(layout.definitionsDir),
    },
    { lineWidth: 0 },
  );
  return {
    path: "Pulumi.yaml",
    what: `the Pulumi project: the program ${programFile(layout)}, every setting declared with its default`,
    text: `# The Pulumi project of your status-page incidents, written by incident-sync init.
# \`pulumi up\` here runs the program, and so does \`npx incident-sync up\`; \`pulumi config\`
# shows the settings a stack runs with.
${body.replace(/^config:\n/m, `config:\n${PER_STACK}`)}`,
  };
}

function program(layout: InitLayout): InitFile {
  const what = "the program: one incident per definition, read back as stack outputs";
  if (layout.language === "ts") {
    return {
      path: "index.ts",
      what,
      text: `// The Pulumi program: reads the stack's settings, loads the definitions directory, declares
// one incident per definition and returns the read-backs as the stack outputs. To declare
// incidents in code instead, pass them: declareIncidentStack({ incidents: [...] }).
import { declareIncidentStack } from "incident-sync";

export = async () => (await declareIncidentStack()).outputs;
`,
    };
  }
  return {
    path: "index.js",
    what,
    text: `// The Pulumi program: reads the stack's settings, loads the definitions directory, declares
// one incident per definition and returns the read-backs as the stack outputs.
module.exports = require("incident-sync/program");
`,
  };
}

function servicesYaml(layout: InitLayout): InitFile {
  return {
    path: `${layout.definitionsDir}/services.yaml`,
    what: "the services catalog: each service's id and the name the status page shows",
    text: `# yaml-language-server: $schema=${layout.schemaDir}/services.schema.json
#
# The services catalog: every service of your status page that an incident may list, by its
# id, with the name the status page shows. Incidents then list a service by its id alone.
# Replace the example with your own services (their ids are on the status page).
svc-example: Example service
`,
  };
}

function exampleIncident(layout: InitLayout): InitFile {
  return {
    path: `${layout.definitionsDir}/example.yaml`,
    what: "an example incident, adopted by up --emulator into a local sandbox",
    text: `# yaml-language-server: $schema=${layout.schemaDir}/incident.schema.json
#
# An example, to see incident-sync work: \`npx incident-sync up --emulator\` adopts it into a
# local sandbox. Before going live, make it an incident of your status page (its id, name,
# severity, status and services as they are there), or delete this file.
id: inc-example
name: Example incident written by incident-sync init
severity: MINOR
status: RESOLVED
services:
  - svc-example
`,
  };
}

/**
 * A stack's settings, none set yet: no comment, as the first `pulumi config set` would drop it
 * (how to set them is in `Pulumi.yaml` and docs/cli.md).
 */
function stackFile(stack: string): InitFile {
  const name = bareStackName(stack);
  return {
    path: `Pulumi.${name}.yaml`,
    what: `the settings of stack ${stack} (see Pulumi.yaml for how to set them)`,
    text: "config: {}\n",
  };
}

/** Every file of a new project, in the order they are listed. */
export function projectFiles(layout: InitLayout): InitFile[] {
  return [
    pulumiYaml(layout),
    program(layout),
    ...layout.stacks.map(stackFile),
    { path: ".nvmrc", what: "Node 24, for nvm and actions/setup-node", text: "24\n" },
    servicesYaml(layout),
    exampleIncident(layout),
  ];
}

/** What `.gitignore` must hold: the packages, and the emulator's sandbox. */
export const GITIGNORE_LINES = ["node_modules/", ".incident-sync/"] as const;
