import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEmulator, demoSeedPath } from "../../src/emulator";

describe("seed files", () => {
  it("finds the bundled demo seed from the package root", () => {
    expect(demoSeedPath()).toMatch(/examples[/\\]seed[/\\]demo\.yaml$/);
  });

  it("reports every problem of a seed file with its line", () => {
    const dir = mkdtempSync(join(tmpdir(), "seed-"));
    const file = join(dir, "bad.yaml");
    writeFileSync(
      file,
      [
        "accounts:",
        "  - id: acct-a",
        "    apiKeys: [a-key]",
        "    incidents:",
        "      - id: inc-1",
        "        name: Broken",
        "        severity: SEVERE",
        "        services: [svc-missing]",
        "        updates: [{ description: hi, created_at: yesterday }]",
      ].join("\n"),
    );
    let message = "";
    try {
      createEmulator({ seed: file });
    } catch (error) {
      message = (error as Error).message.replaceAll(dir, "<dir>");
    }
    expect(message).toMatchInlineSnapshot(`
      "seed from <dir>/bad.yaml is not valid (2 problems):
        - <dir>/bad.yaml:7 accounts[0].incidents[0].severity: Invalid option: expected one of "CRITICAL"|"MAJOR"|"MEDIUM"|"MINOR"
        - <dir>/bad.yaml:9 accounts[0].incidents[0].updates[0].created_at: must be an ISO 8601 date-time with an offset (2026-11-03T10:00:00Z), a date (2026-11-03), \`now\`, or a relative time such as -2h or -3d
      See examples/seed/demo.yaml for the format."
    `);
  });

  it("reports a YAML syntax error with line and column", () => {
    const dir = mkdtempSync(join(tmpdir(), "seed-"));
    const file = join(dir, "syntax.yaml");
    writeFileSync(file, "accounts:\n  - id: [unclosed\n");
    expect(() => createEmulator({ seed: file })).toThrow(/syntax\.yaml:\d+:\d+/);
  });

  it("accepts a seed object and resolves relative times against the clock", () => {
    const now = new Date("2026-01-01T00:00:00Z");
    const emulator = createEmulator({
      now: () => now,
      seed: {
        accounts: [
          {
            id: "a",
            apiKeys: ["k"],
            checkResults: [{ checkId: "c", at: "-1d2h", error: "boom" }],
          },
        ],
      },
    });
    const [group] = emulator.control.recordCheckResults("a", [
      { checkId: "c", at: "-1d2h", error: "boom" },
    ]);
    expect(group?.errorGroupId).toMatch(/^eg_[0-9a-f]{24}$/);
    emulator.close();
  });

  it("names checks for the checks list, keeping a heartbeat named there a heartbeat", async () => {
    const emulator = createEmulator({
      seed: {
        accounts: [
          {
            id: "a",
            apiKeys: ["k"],
            heartbeats: [{ checkId: "hb-invoices" }],
            checks: [
              { id: "chk-api", name: "Public API orders" },
              { id: "hb-invoices", name: "Nightly invoice run" },
            ],
          },
        ],
      },
    });
    const response = await emulator.app.request("/v1/checks?limit=100", {
      headers: { authorization: "Bearer k" },
    });
    expect(await response.json()).toEqual([
      { id: "chk-api", name: "Public API orders", checkType: "API", activated: true, tags: [] },
      {
        id: "hb-invoices",
        name: "Nightly invoice run",
        checkType: "HEARTBEAT",
        activated: true,
        tags: [],
      },
    ]);
    expect(() =>
      createEmulator({
        seed: {
          accounts: [
            {
              id: "a",
              apiKeys: ["k"],
              checks: [
                { id: "c", name: "One" },
                { id: "c", name: "Two" },
              ],
            },
          ],
        },
      }),
    ).toThrow(/accounts\[0\]\.checks\[1\]\.id: duplicate check id c/);
    emulator.close();
  });
});
