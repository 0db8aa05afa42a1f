import { createHash } from "node:crypto";
import { pageAssets } from "../html/assets";

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for HTML content and attribute values. */
export function esc(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

function sha256(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/**
 * JSON for a `<script type="application/json">` data block: `<` is written as `\u003c`,
 * so no text in the data (an error message holding `</script>`) can end the block.
 */
function dataBlock(data: unknown): string {
  return JSON.stringify(data).replace(/</g, "\\u003c");
}

export interface HtmlPageParts {
  title: string;
  /** Markup of the body; elements with `data-table` / `data-chart` are filled by the page script. */
  body: string;
  /** What the page script draws: `{ tables: { id: spec }, charts: { id: spec } }`. */
  data: { tables?: Record<string, unknown>; charts?: Record<string, unknown> };
}

/**
 * A complete, self-contained page: the style sheet, uPlot and the page script inline, the
 * data in a JSON block, and a Content-Security-Policy that forbids any network access
 * and runs only the inline scripts and style whose SHA-256 hashes it lists.
 */
export function htmlPage(parts: HtmlPageParts): string {
  const assets = pageAssets();
  const csp = [
    "default-src 'none'",
    `script-src ${assets.scripts.map(sha256).join(" ")}`,
    `style-src ${sha256(assets.style)}`,
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; "); // hashes are base64 and quotes are single: nothing here needs escaping
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(parts.title)}</title>
<style>${assets.style}</style>
</head>
<body>
${parts.body}
<noscript><p class="meta">The charts and tables of this report are drawn by its inline scripts; allow them, or use --format md, csv or json.</p></noscript>
<script type="application/json" id="report-data">${dataBlock(parts.data)}</script>
${assets.scripts.map((script) => `<script>${script}</script>`).join("\n")}
</body>
</html>
`;
}
