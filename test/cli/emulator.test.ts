import { writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { tempDir } from "../reports/support/harness";
import { runCli } from "./run-cli";

let taken: Server;
let port: number;
beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  port = (taken.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => taken.close(resolve));
});

describe("incident-sync emulator when it cannot start", () => {
  test("a seed with a mistake fails with exit 1 and the seed's own message, without a stack trace", async () => {
    const dir = await tempDir("emulator-cli");
    const seed = path.join(dir, "seed.yaml");
    await writeFile(seed, "accounts:\n  - id: acct-1\n    apiKeys: []\n    colour: blue\n");
    const result = await runCli(["emulator", "--port", "0", "--seed", seed], dir, {});

    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).not.toMatch(/^ {4}at /m);
    expect(result.stderr.replaceAll(seed, "<seed.yaml>")).toMatchInlineSnapshot(`
      "incident-sync emulator: seed from <seed.yaml> is not valid (2 problems):
        - <seed.yaml>:3 accounts[0].apiKeys: Too small: expected array to have >=1 items
        - <seed.yaml>:2 accounts[0]: Unrecognized key: "colour"
      See examples/seed/demo.yaml for the format.
      "
    `);
  });

  test("a port in use fails with exit 1, and with --format json as a JSON error on stdout", async () => {
    const result = await runCli(
      ["emulator", "--port", String(port), "--format", "json"],
      process.cwd(),
      {},
    );

    expect(result.exitCode).toBe(1);
    expect(JSON.parse(result.stdout.replace(String(port), "<port>"))).toMatchInlineSnapshot(`
      {
        "error": {
          "message": "listen EADDRINUSE: address already in use 127.0.0.1:<port>",
          "type": "SystemError",
        },
      }
    `);
  });
});
