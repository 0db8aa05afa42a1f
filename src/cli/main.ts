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
  // keeps the compiled code of the modules in a cache on disk (NODE_COMPILE_CACHE says
  // where, NODE_DISABLE_COMPILE_CACHE=1 turns it off), so later runs skip compiling them.
  enableCompileCache();
  void (require("./program") as typeof import("./program")).runProgram(process.argv);
}
