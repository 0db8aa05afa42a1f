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

const STYLE = `
:root { color-scheme: light; --fg:#1f2328; --muted:#59636e; --line:#d1d9e0; --ok:#1a7f37; --bad:#cf222e; --other:#9a6700; --bar:#0969da; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); margin: 2rem auto; max-width: 1100px; padding: 0 1rem; }
h1 { font-size: 1.5rem; margin-bottom: .25rem; } h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; }
.meta { color: var(--muted); margin-top: 0; }
table { border-collapse: collapse; width: 100%; margin: .75rem 0; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: #f6f8fa; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; word-break: break-all; }
svg.chart { display: block; width: 100%; height: auto; margin: .5rem 0 1rem; }
svg.chart text { font: 11px system-ui, sans-serif; fill: var(--muted); }
.badge { display: inline-block; border-radius: 1em; padding: 0 .5em; font-size: 12px; border: 1px solid var(--line); }
.new { color: var(--bad); } .gone { color: var(--ok); } .present { color: var(--muted); }
`;

/**
 * Wraps a report body in a complete, self-contained page: inline CSS, inline SVG, no
 * scripts, and a Content-Security-Policy that forbids any network access at view time.
 */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}
