#!/usr/bin/env node
import { createProgram } from "./program";

createProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    process.stderr.write(
      `incident-sync: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  });
