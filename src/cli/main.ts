#!/usr/bin/env node
import { enableCompileCache } from "node:module";
import { nodeVersionProblem } from "./node-version";

// Checked before anything else loads: the rest needs a newer Node (require() of ES modules,
// node:sqlite) and would otherwise die with a raw stack instead of saying what to install.
const problem = nodeVersionProblem(process.versions.node);
if (problem !== undefined) {
  process.stderr.write(problem);
  process.exitCode = 1;
} else {
  // The CLI runs in pre-commit hooks and editors, where start-up is most of the wait: Node
  // keeps the compiled code of the modules in the user's cache folder (compileCacheDir says
  // where; never the shared $TMPDIR), so later runs skip compiling them.
  const cache = (
    require("../compile-cache") as typeof import("../compile-cache")
  ).compileCacheDir();
  if (cache !== undefined) enableCompileCache(cache);
  void (require("./program") as typeof import("./program")).runProgram(process.argv);
}
