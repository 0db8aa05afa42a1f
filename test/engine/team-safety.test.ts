import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../src/emulator";
import { resolveEngine } from "../../src/engine";
import { gitIdentity } from "../support/git-env";
import { copyCheckout, reuseBuild } from "./support/checkout";
import { incidentRows } from "./support/emulator-rows";
import { type EmulatorSandbox, startEmulatorSandbox } from "./support/emulator-sandbox";
import { plainCliEnv } from "./support/plain-cli-env";
import { type ShellResult, sh, shAll } from "./support/shell";

const timeout = 300_000;

/** An open incident that customers see, resolved when its definition is removed. */
const apiErrors = (resource: string, extra = "") => `id: inc-api-errors
resource: ${resource}
name: Elevated error rate on the public API
severity: MAJOR
status: MONITORING
services: [svc-api]
onRemove: resolve
${extra}`;

/** One definition per stack, and one for both. */
const perStack = `id: inc-db-maintenance
name: Scheduled database maintenance
severity: MINOR
status: RESOLVED
services: [svc-db]
stacks: [staging]
---
id: inc-login-failures
name: Some users cannot log in with SSO
severity: MEDIUM
status: RESOLVED
services: [svc-auth]
stacks: [prod]
`;

/**
 * A team's everyday Pulumi, through the plain CLI in a checkout (issue 26): one `incidents/`
 * tree for two stacks, a resource renamed with and without `aliases`, a typo'd stack setting,
 * and `pulumi import`.
 */
describe("plain pulumi for a team: two stacks, renames, settings", () => {
  let sandbox: EmulatorSandbox;
  let emulator: RunningEmulator;
  let db: DatabaseSync;
  let checkout: string;
  let env: Record<string, string>;

  const run = (line: string) => sh(line, checkout, env);
  const live = () => incidentRows(db, emulator.demo.accountId);
  const puts = () => emulator.emulator.control.stats().byOperation.updateIncident?.total ?? 0;
  const write = (file: string, text: string) =>
    writeFileSync(join(checkout, "incidents", file), text);
  /** The resource names in a stack's state, by `pulumi stack export`. */
  const resources = async (stack: string) => {
    const exported = await run(`pulumi stack export --stack ${stack}`);
    expect(exported.code, exported.output).toBe(0);
    const { deployment } = JSON.parse(exported.output) as {
      deployment: { resources?: { type: string; urn: string }[] };
    };
    return (deployment.resources ?? [])
      .filter((resource) => resource.type.endsWith(":Incident"))
      .map((resource) => resource.urn.slice(resource.urn.lastIndexOf("::") + 2))
      .sort();
  };
  const up = async (stack: string): Promise<ShellResult> =>
    run(`pulumi up --yes --skip-preview --suppress-outputs --stack ${stack}`);

  beforeAll(async () => {
    const engine = await resolveEngine();
    sandbox = await startEmulatorSandbox("team", "demo");
    ({ emulator, db } = sandbox);
    checkout = copyCheckout(join(sandbox.root, "checkout"));
    reuseBuild(checkout);
    for (const file of readdirSync(join(checkout, "incidents"))) {
      if (file !== "services.yaml") rmSync(join(checkout, "incidents", file));
    }
    write("api-errors.yaml", apiErrors("api-errors"));
    write("per-stack.yaml", perStack);
    env = plainCliEnv(engine, join(sandbox.root, "home"), {
      PULUMI_CONFIG_PASSPHRASE: "team-passphrase",
      MONITORING_API_URL: emulator.url,
      MONITORING_ACCOUNT_ID: emulator.demo.accountId,
      MONITORING_API_KEY: emulator.demo.apiKey,
      ...gitIdentity("Reviewer"),
    });
    await shAll(
      [
        'mkdir -p ~/.pulumi-state && pulumi login "file://$HOME/.pulumi-state"',
        ...["staging", "prod"].flatMap((stack) => [
          `pulumi stack init ${stack}`,
          'pulumi config set incident-sync:baseUrl "$MONITORING_API_URL"',
          'pulumi config set incident-sync:accountId "$MONITORING_ACCOUNT_ID"',
          `printf '%s' "$MONITORING_API_KEY" | pulumi config set --secret incident-sync:apiKey`,
        ]),
        "git init -q && git add -A && git commit -qm 'incidents for two stacks'",
      ],
      checkout,
      env,
    );
  }, timeout);

  afterAll(async () => {
    await sandbox?.close();
  });

  it(
    "applies to each stack the definitions it declares from one incidents/ tree, and validate and plan say which",
    async () => {
      const staging = await up("staging");
      expect(staging.code, staging.output).toBe(0);
      expect(staging.output).toContain("+ 3 created");
      const prod = await up("prod");
      expect(prod.code, prod.output).toBe(0);
      expect(await resources("staging")).toEqual(["api-errors", "inc-db-maintenance"]);
      expect(await resources("prod")).toEqual(["api-errors", "inc-login-failures"]);
      const validate = await run("npx incident-sync validate --stack prod");
      expect(validate.output).toContain(
        "incidents: 3 definitions in 2 files and the services catalog, all valid; stack prod declares 2 of them.",
      );
    },
    timeout,
  );

  it(
    "renames a resource with aliases as a no-op: nothing sent, the incident still open",
    async () => {
      const before = { puts: puts(), status: live().get("inc-api-errors")?.status };
      write("api-errors.yaml", apiErrors("public-api-errors", "aliases: [api-errors]\n"));
      const plan = await run("npx incident-sync plan --base HEAD --stack staging");
      expect(plan.code, plan.output).toBe(2);
      expect(plan.output).toContain("resource: api-errors → public-api-errors");
      const renamed = await up("staging");
      expect(renamed.code, renamed.output).toBe(0);
      expect(renamed.output).not.toMatch(/created|deleted/);
      expect(await resources("staging")).toEqual(["inc-db-maintenance", "public-api-errors"]);
      expect({ puts: puts(), status: live().get("inc-api-errors")?.status }).toEqual(before);
      await shAll(["git commit -qam 'rename with an alias'"], checkout, env);
    },
    timeout,
  );

  it(
    "renames a resource without aliases: plan flags it (exit 3), and up releases the incident rather than resolving it",
    async () => {
      write("api-errors.yaml", apiErrors("api-error-rate"));
      const plan = await run("npx incident-sync plan --base HEAD --stack staging");
      expect(plan.code, plan.output).toBe(3);
      expect(plan.output).toContain(
        'resource "public-api-errors" is renamed to "api-error-rate" without an alias',
      );
      expect(plan.output).toContain("Add `aliases: [public-api-errors]`");
      const renamed = await up("staging");
      expect(renamed.code, renamed.output).toBe(0);
      expect(renamed.output).toContain("+ 1 created");
      expect(renamed.output).toContain("- 1 deleted");
      expect(renamed.output).toContain(
        "incident inc-api-errors is released, not resolved: another resource of this stack now declares it",
      );
      expect(live().get("inc-api-errors")?.status).toBe("MONITORING");
      // The next run converges quietly: no reopen refusal, nothing to change.
      const next = await up("staging");
      expect(next.code, next.output).toBe(0);
      expect(next.output).toContain("3 unchanged");
    },
    timeout,
  );

  it(
    "fails pulumi up on a typo'd incident-sync setting, naming the key and the closest setting",
    async () => {
      expect((await run("pulumi config set incident-sync:readBak open --stack prod")).code).toBe(0);
      const typo = await up("prod");
      expect(typo.code).not.toBe(0);
      expect(typo.output).toContain(
        "incident-sync:readBak is not a setting of incident-sync: did you mean incident-sync:readBack?",
      );
      expect((await run("pulumi config rm incident-sync:readBak --stack prod")).code).toBe(0);
      expect((await up("prod")).code).toBe(0);
      // The optional settings are declared in Pulumi.yaml: pulumi config shows their defaults.
      const config = await run("pulumi config --stack prod --json");
      expect(JSON.parse(config.output)).toMatchObject({
        "incident-sync:readBack": { value: "all" },
        "incident-sync:retries": { value: "8" },
      });
    },
    timeout,
  );

  it(
    "pulumi import stops in Pulumi's dynamic-provider host and changes nothing, as the README says",
    async () => {
      const before = { puts: puts(), resources: await resources("staging") };
      const imported = await run(
        "pulumi import 'pulumi-nodejs:dynamic/incident-sync:Incident' checkout inc-checkout-latency --yes --stack staging",
      );
      expect(imported.code).not.toBe(0);
      expect(imported.output).toContain("reading 'toJavaScript'");
      expect({ puts: puts(), resources: await resources("staging") }).toEqual(before);
    },
    timeout,
  );

  it(
    "incident-sync up claims and applies only what its stack declares",
    async () => {
      write(
        "per-stack.yaml",
        `${perStack.replace("stacks: [prod]", "stacks: [staging]")}---
id: inc-checkout-latency
name: Checkout is slow for some customers
severity: MEDIUM
status: INVESTIGATING
services: [svc-checkout]
stacks: [prod]
`,
      );
      const up = await run("npx incident-sync up --stack prod --state ~/.pulumi-state");
      expect(up.code, up.output).toBe(0);
      expect(await resources("prod")).toEqual(["api-error-rate", "inc-checkout-latency"]);
      expect(await resources("staging")).not.toContain("inc-checkout-latency");
      // A rename with its alias is no new incident: nothing to record first, nothing sent.
      const before = puts();
      write(
        "per-stack.yaml",
        readFileSync(join(checkout, "incidents", "per-stack.yaml"), "utf8").replace(
          "id: inc-checkout-latency\n",
          "id: inc-checkout-latency\nresource: checkout\naliases: [inc-checkout-latency]\n",
        ),
      );
      const renamed = await run("npx incident-sync up --stack prod --state ~/.pulumi-state");
      expect(renamed.code, renamed.output).toBe(0);
      expect(renamed.output).not.toContain("Recording");
      expect(await resources("prod")).toEqual(["api-error-rate", "checkout"]);
      expect(puts()).toBe(before);
    },
    timeout,
  );

  it(
    "names stacks as Pulumi does, refuses a stacks entry no stack has, and creates a stack only with up",
    async () => {
      const validate = await run("npx incident-sync validate --stack organization/prod");
      expect(validate.code, validate.output).toBe(0);
      expect(validate.output).toContain("stack organization/prod declares 2 of them.");
      write(
        "typo.yaml",
        "id: inc-web\nname: Web app errors\nseverity: MINOR\nstatus: RESOLVED\nservices: [svc-web]\nstacks: [prdo]\n",
      );
      const refused = await run("npx incident-sync validate");
      expect(refused.code, refused.output).toBe(1);
      expect(refused.output).toContain(
        'incidents/typo.yaml:6:10: stacks entry "prdo" is no stack of the Pulumi.<stack>.yaml files beside Pulumi.yaml: did you mean "prod"?',
      );
      // A preview never creates the stack it names.
      const missing = await run("npx incident-sync preview --stack prdo --state ~/.pulumi-state");
      expect(missing.code).toBe(1);
      expect(missing.output).toContain("incident-sync preview: Stack prdo does not exist in ");
      expect(missing.output).toContain(
        "`incident-sync up --stack prdo` creates it (so does `pulumi stack init prdo`). Only up creates a stack, so that a mistyped name never makes an empty one.",
      );
      expect((await run("pulumi stack ls --json")).output).not.toContain('"prdo"');
      // Without --stack, the stack Pulumi has selected, as `pulumi preview` runs; the entry is
      // checked against the stack files and the backend's stacks, and nothing runs.
      expect((await run("pulumi stack select staging")).code).toBe(0);
      const selected = await run("npx incident-sync preview --state ~/.pulumi-state");
      expect(selected.code, selected.output).toBe(1);
      expect(selected.output).toContain(
        'incidents/typo.yaml:6:10: stacks entry "prdo" is no stack of the Pulumi.<stack>.yaml files beside Pulumi.yaml or the backend\'s stacks: did you mean "prod"?',
      );
      rmSync(join(checkout, "incidents", "typo.yaml"));
    },
    timeout,
  );

  it(
    "leaves a public incident open when a typo in stacks would have taken it off prod: validate and plan fail, up runs nothing",
    async () => {
      const file = join(checkout, "incidents", "api-errors.yaml");
      const declared = readFileSync(file, "utf8");
      expect(declared).toContain("onRemove: resolve");
      const before = { puts: puts(), status: live().get("inc-api-errors")?.status };
      expect(before.status).toBe("MONITORING");
      write("api-errors.yaml", `${declared}stacks: [prdo]\n`);
      try {
        expect((await run("npx incident-sync validate")).code).toBe(1);
        const plan = await run("npx incident-sync plan --base HEAD");
        expect(plan.code, plan.output).toBe(3);
        expect(plan.output).toMatch(
          /\[unknown-stack\] incidents\/api-errors\.yaml:\d+:\d+: stacks entry "prdo"/,
        );
        const up = await run("npx incident-sync up --stack prod --state ~/.pulumi-state");
        expect(up.code, up.output).toBe(1);
        expect(up.output).toContain("so nothing was run (nothing was released or resolved)");
        expect(await resources("prod")).toContain("api-error-rate");
        expect({ puts: puts(), status: live().get("inc-api-errors")?.status }).toEqual(before);
        // An organization's stack on this self-managed backend, refused in our words.
        const acme = await run("npx incident-sync up --stack acme/prod --state ~/.pulumi-state");
        expect(acme.code).toBe(1);
        expect(acme.output).toContain('Stack "acme/prod" names the organization acme, but');
        expect(acme.output).not.toContain("organization name must be");
      } finally {
        writeFileSync(file, declared);
      }
    },
    timeout,
  );
});
