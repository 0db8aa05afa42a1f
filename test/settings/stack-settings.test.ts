import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  API_KEY_SETTING,
  checkSettingKeys,
  configKey,
  SETTINGS,
  STACK_SETTING_NAMES,
  StackConfigError,
  StackSettings,
} from "../../src/settings";

interface DeclaredSetting {
  type: string;
  default?: unknown;
  description?: string;
  secret?: boolean;
}

const project = parse(readFileSync(join(__dirname, "..", "..", "Pulumi.yaml"), "utf8")) as {
  config: Record<string, DeclaredSetting>;
};

describe("the stack settings (issue 26)", () => {
  it("are each declared in Pulumi.yaml with a description, and its default is the one the program applies", () => {
    const applied: Record<string, unknown> = {
      ...StackSettings.parse({ baseUrl: "http://127.0.0.1:1", accountId: "acct" }),
      rateLimit: SETTINGS.rateLimit.default,
      concurrency: SETTINGS.concurrency.default,
    };
    const declared = Object.keys(project.config).sort();
    expect(declared).toEqual([...STACK_SETTING_NAMES, API_KEY_SETTING].map(configKey).sort());
    const required = ["baseUrl", "accountId"];
    for (const name of STACK_SETTING_NAMES) {
      const setting = project.config[configKey(name)];
      expect(setting?.description, name).toMatch(/\w/);
      if (required.includes(name)) {
        expect(setting, name).toMatchObject({ type: "string" });
        expect(setting?.default, name).toBeUndefined();
        continue;
      }
      expect(setting?.default, name).toEqual(applied[name]);
      const type = typeof applied[name] === "number" ? "integer" : typeof applied[name];
      expect(setting?.type, name).toBe(type);
    }
    expect(project.config[configKey(API_KEY_SETTING)]?.secret).toBe(true);
  });

  it("are each in the config table of docs/provider-and-program.md, with the default the program applies", () => {
    const readme = readFileSync(
      join(__dirname, "..", "..", "docs", "provider-and-program.md"),
      "utf8",
    );
    const start = readme.indexOf("| Key (`incident-sync:`) |");
    // The table alone: later tables (the outputs') have rows of the same form.
    const table = readme.slice(start, readme.indexOf("\n\n", start));
    const rows = new Map(
      [...table.matchAll(/^\| `(\w+)` \| [^\n]*\| ([^|\n]+) \|$/gm)].map((row) => [
        row[1],
        row[2]?.trim().replaceAll("`", ""),
      ]),
    );
    const applied: Record<string, unknown> = {
      ...StackSettings.parse({ baseUrl: "http://127.0.0.1:1", accountId: "acct" }),
      rateLimit: SETTINGS.rateLimit.default,
      concurrency: SETTINGS.concurrency.default,
    };
    for (const name of [...STACK_SETTING_NAMES, API_KEY_SETTING]) {
      const shown = rows.get(name);
      expect(shown, name).toBeDefined();
      if (shown === "required") continue;
      expect(shown, name).toBe(String(applied[name]));
    }
  });

  it("refuse an unknown key in the incident-sync namespace with the closest name, and leave other namespaces alone", () => {
    expect(() =>
      checkSettingKeys(["incident-sync:baseUrl", "aws:region", "incident-sync:apiKey"]),
    ).not.toThrow();
    let error: unknown;
    try {
      checkSettingKeys([
        "incident-sync:readBak",
        "incident-sync:zzzzzzzz",
        "incident-sync:retries",
      ]);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StackConfigError);
    expect((error as Error).message).toContain(
      "incident-sync:readBak is not a setting of incident-sync: did you mean incident-sync:readBack? (pulumi config rm incident-sync:readBak)",
    );
    expect((error as Error).message).toContain(
      "incident-sync:zzzzzzzz is not a setting of incident-sync (pulumi config rm incident-sync:zzzzzzzz)",
    );
  });
});
