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
    expect(scripts.build).toBe("node scripts/build.mjs");
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

  it("compiles again only when a source or dist/ changed, so a second npm start or npm test does not", () => {
    const checkout = mkdtempSync(join(tmpdir(), "incident-sync-build-"));
    const build = (...args: string[]) =>
      spawnSync(process.execPath, [join(root, "scripts", "build.mjs"), ...args, checkout], {
        encoding: "utf8",
      });
    const compiled = (run: ReturnType<typeof build>) => {
      expect(run.status, run.stderr + run.stdout).toBe(0);
      return !run.stdout.includes("nothing to compile");
    };
    try {
      // A stand-in for tsc, which takes seconds to start: each .ts file copied to dist/ as .js.
      const tsc = join(checkout, "node_modules", "typescript", "bin");
      mkdirSync(tsc, { recursive: true });
      writeFileSync(
        join(tsc, "tsc"),
        [
          'const { cpSync, readdirSync } = require("node:fs");',
          "for (const f of readdirSync('.', { recursive: true }))",
          "  if (f.endsWith('.ts') && !f.startsWith('node_modules') && !f.startsWith('dist'))",
          "    cpSync(f, 'dist/' + f.replace(/\\.ts$/, '.js'));",
        ].join("\n"),
      );
      mkdirSync(join(checkout, "src", "deep"), { recursive: true });
      writeFileSync(
        join(checkout, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: { outDir: "dist" },
          include: ["index.ts", "src/**/*.ts"],
        }),
      );
      writeFileSync(join(checkout, "package-lock.json"), "{}\n");
      writeFileSync(join(checkout, "index.ts"), 'export const a = "a";\n');
      writeFileSync(join(checkout, "src", "deep", "b.ts"), "export const b = 1;\n");
      expect(compiled(build())).toBe(true);
      expect(readFileSync(join(checkout, "dist", "src", "deep", "b.js"), "utf8")).toContain(
        "b = 1",
      );
      expect(compiled(build())).toBe(false);

      // A source edited, a source added, a file of dist/ edited or deleted: each compiles again.
      writeFileSync(join(checkout, "src", "deep", "b.ts"), "export const b = 2;\n");
      expect(compiled(build())).toBe(true);
      expect(readFileSync(join(checkout, "dist", "src", "deep", "b.js"), "utf8")).toContain(
        "b = 2",
      );
      writeFileSync(join(checkout, "src", "c.ts"), "export const c = 3;\n");
      expect(compiled(build())).toBe(true);
      writeFileSync(join(checkout, "dist", "index.js"), "// changed by hand\n");
      expect(compiled(build())).toBe(true);
      expect(readFileSync(join(checkout, "dist", "index.js"), "utf8")).toContain('a = "a"');
      rmSync(join(checkout, "dist", "src", "c.js"));
      expect(compiled(build())).toBe(true);
      expect(existsSync(join(checkout, "dist", "src", "c.js"))).toBe(true);
      // A source deleted leaves nothing of it behind; --force compiles what is current.
      rmSync(join(checkout, "src", "c.ts"));
      expect(compiled(build())).toBe(true);
      expect(existsSync(join(checkout, "dist", "src", "c.js"))).toBe(false);
      expect(compiled(build())).toBe(false);
      expect(compiled(build("--force"))).toBe(true);
    } finally {
      rmSync(checkout, { recursive: true, force: true });
    }
  });
});
