// Removes dist/ before `npm run build`, so that a module deleted or renamed in the sources is
// not left behind in dist/, where it would still load, run in tests and ship in the package
// (package.json "files" packs dist/).
//
//   node scripts/clean-dist.mjs [DIR]    # DIR: the checkout (default: this script's)
import { rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const checkout = process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
rmSync(path.join(checkout, "dist"), { recursive: true, force: true });
