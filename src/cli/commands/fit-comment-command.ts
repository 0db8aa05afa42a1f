import { Command, InvalidArgumentError } from "commander";
import { GITHUB_COMMENT_MAX } from "../../markdown";
import { action } from "../run-command";
import type { FitCommentFlags } from "./fit-comment";

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 200) {
    throw new InvalidArgumentError("must be a whole number of characters, at least 200.");
  }
  return parsed;
}

/** `incident-sync fit-comment <file>`; the work is in `./fit-comment`, loaded when it runs. */
export function fitCommentCommand(): Command {
  return new Command("fit-comment")
    .description(
      "Print a Markdown file cut to fit a GitHub comment or issue body, with a note saying what was left out and where the whole is.",
    )
    .argument("<file>", "the Markdown to post (- for standard input)")
    .option(
      "--max-length <chars>",
      `longest body to print, in characters (GitHub's limit is ${GITHUB_COMMENT_MAX})`,
      positiveInteger,
      GITHUB_COMMENT_MAX,
    )
    .option("--link <url>", "where the whole text is, e.g. the run's uploaded artifact")
    .option("--out <file>", "write the body to this file instead of stdout")
    .addHelpText(
      "after",
      `
A body that fits is printed as it is. A longer one keeps whole lines while they fit, closes a
code fence or <details> block left open, and ends with a note: how many lines were left out,
and the link.

Exit codes: 0 printed, 1 the file cannot be read.

Example (a workflow step, after uploading the whole plan as an artifact):
  $ npx incident-sync fit-comment plan.md --link "$ARTIFACT_URL" > comment.md`,
    )
    .action(
      action<FitCommentFlags, [string]>(async (io, flags, [file]) => {
        const { runFitComment } = await import("./fit-comment.js");
        return runFitComment(file, flags, io);
      }),
    );
}
