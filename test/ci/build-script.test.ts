import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "..", "..");

describe("npm run build", () => {
  it("starts from an empty dist/, so nothing deleted from the sources is left to ship", () => {
    const scripts = (
      JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(scripts.build).toBe("node scripts/clean-dist.mjs && tsc -p tsconfig.json");
    expect(scripts.prepare).toBe("npm run build");

    // The script on a checkout of its own, not this one: the suite runs from this dist/.
    const checkout = mkdtempSync(join(tmpdir(), "incident-sync-clean-dist-"));
    try {
      mkdirSync(join(checkout, "dist", "src", "removed"), { recursive: true });
      writeFileSync(join(checkout, "dist", "src", "removed", "module.js"), "// stale\n");
      writeFileSync(join(checkout, "kept.txt"), "not dist\n");
      const run = spawnSync(process.execPath, [join(root, "scripts", "clean-dist.mjs"), checkout], {
        encoding: "utf8",
      });
      expect(run.status, run.stderr).toBe(0);
      expect(existsSync(join(checkout, "dist"))).toBe(false);
      expect(existsSync(join(checkout, "kept.txt"))).toBe(true);
      // Nothing to remove is not an error.
      const again = spawnSync(process.execPath, [
        join(root, "scripts", "clean-dist.mjs"),
        checkout,
      ]);
      expect(again.status).toBe(0);
    } finally {
      rmSync(checkout, { recursive: true, force: true });
    }
  });
});
