import { formatLocation } from "../definitions/problem";
import { githubAnnotation } from "../github-annotation";
import { codeSpan, mdText } from "../markdown";
import { inertCell } from "../reports/shared/csv-writer";
import { esc } from "../reports/shared/html";
import { safeLine } from "../safe-text";
import { type Failure, failureJson } from "./failure";
import type { Format } from "./formats";

export interface ErrorDocumentOptions {
  /** The command as typed, e.g. `plan` or `report errors`. */
  readonly command: string;
  /** A first line for Markdown, such as plan's hidden sticky-comment marker. */
  readonly markdownMarker?: string | undefined;
}

/**
 * A failure as a whole document in stdout's format (JSON `{error}`, Markdown, one GitHub
 * annotation per problem, a CSV `error` row, an HTML page), so readers never get half a report.
 */
export function errorDocument(
  format: Format,
  failure: Failure,
  options: ErrorDocumentOptions,
): string | undefined {
  const title = `incident-sync ${options.command}`;
  switch (format) {
    case "text":
      return undefined;
    case "json":
      return `${JSON.stringify({ error: failureJson(failure) }, null, 2)}\n`;
    case "csv":
      return `error\n${csvField(inertCell(failure.message))}\n`;
    case "github":
      return `${githubErrors(title, failure).join("\n")}\n`;
    case "markdown":
      return markdownError(title, failure, options.markdownMarker);
    case "html":
      return errorPage(title, failure);
  }
}

/**
 * One CSV field (RFC 4180), written here rather than with csv-stringify: that package is
 * optional, and the error saying it is missing must still be a CSV document.
 */
function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function githubErrors(title: string, failure: Failure): string[] {
  const perProblem = (failure.problems ?? []).map((problem) =>
    githubAnnotation({
      level: "error",
      file: problem.file,
      ...(problem.line === undefined ? {} : { line: problem.line }),
      ...(problem.column === undefined ? {} : { column: problem.column }),
      title: `incident-sync: ${problem.code}`,
      message: problem.message,
    }),
  );
  return [...perProblem, githubAnnotation({ level: "error", title, message: failure.message })];
}

function markdownError(title: string, failure: Failure, marker: string | undefined): string {
  const [first = "", ...rest] = failure.message.split("\n");
  const fence = fenceFor(rest);
  const lines = [
    ...(marker ? [marker] : []),
    `### ${title}: failed`,
    "",
    `❌ ${mdText(first)}`,
    // In a fence, nothing is read as Markdown; it is still a log's lines, so made safe.
    ...(rest.length > 0 ? ["", `${fence}text`, ...rest.map(safeLine), fence] : []),
    ...(failure.problems
      ? [
          "",
          ...failure.problems.map((p) => `- ${codeSpan(formatLocation(p))} ${mdText(p.message)}`),
        ]
      : []),
  ];
  return `${lines.join("\n")}\n`;
}

/** A code fence longer than any run of backticks in `lines`, so none of them can close it. */
function fenceFor(lines: readonly string[]): string {
  const longest = Math.max(
    0,
    ...lines.flatMap((line) => line.match(/`+/g) ?? []).map((run) => run.length),
  );
  return "`".repeat(Math.max(3, longest + 1));
}

/** A small page, without the reports' scripts: nothing to draw, and nothing loaded. */
function errorPage(title: string, failure: Failure): string {
  const problems = failure.problems
    ? `\n<ul>${failure.problems.map((p) => `<li><code>${esc(formatLocation(p))}</code> ${esc(p.message)}</li>`).join("")}</ul>`
    : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${esc(title)}: failed</title>
<style>body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 1100px; padding: 0 1rem; } pre { white-space: pre-wrap; }</style>
</head>
<body>
<h1>${esc(title)}: failed</h1>
<pre>${esc(failure.message)}</pre>${problems}
</body>
</html>
`;
}
