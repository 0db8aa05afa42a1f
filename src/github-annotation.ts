import { escapeHiddenKeepingLines } from "./safe-text";

/** A GitHub Actions workflow annotation, shown on the pull request's changed lines. */
export interface GithubAnnotation {
  readonly level: "error" | "warning" | "notice";
  readonly message: string;
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  readonly title?: string;
}

/**
 * `::error file=…,line=…,col=…,title=…::message`, the one writer of workflow commands: text is
 * sanitised, then escaped as the runner expects, so nothing in it breaks or starts a command.
 */
export function githubAnnotation(annotation: GithubAnnotation): string {
  const properties = [
    annotation.file !== undefined ? `file=${escapeProperty(annotation.file)}` : "",
    annotation.line !== undefined ? `line=${annotation.line}` : "",
    annotation.column !== undefined ? `col=${annotation.column}` : "",
    annotation.title !== undefined ? `title=${escapeProperty(annotation.title)}` : "",
  ].filter(Boolean);
  const head =
    properties.length > 0 ? `${annotation.level} ${properties.join(",")}` : annotation.level;
  return `::${head}::${escapeData(annotation.message)}`;
}

function escapeData(text: string): string {
  return escapeHiddenKeepingLines(text)
    .replace(/%/g, "%25")
    .replace(/\r/g, "%0D")
    .replace(/\n/g, "%0A");
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}
