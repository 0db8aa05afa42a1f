import { marked } from "marked";
import { describe, expect, it } from "vitest";
import { codeSpan, mdCell, mdTable, mdText } from "../../src/markdown";
import { buildPlan, renderPlanMarkdown } from "../../src/plan";
import { definitionYaml, load } from "../definitions/helpers";

/**
 * Text from definitions and from the server, rendered the way GitHub renders comments (GFM,
 * with its autolinks), must stay text: no link, image, HTML, heading or list we did not make,
 * and no @mention or issue reference outside code, where GitHub does not look for them.
 */
const HOSTILE = [
  "[click](https://evil.example/x)",
  "![pixel](https://evil.example/p.png)",
  "ping @someone and @org/team",
  "see https://evil.example/a?b=c and www.evil.example",
  "mail root@evil.example",
  "<img src=x onerror=alert(1)> <b>bold</b>",
  "fixes #12 and owner/repo#3 and GH-4",
  "a``b`c ``` d",
  "`",
  "pipes | in | cells",
  "*star* _under_ ~~strike~~ \\ back",
  "&lt;already&gt; &amp;",
  "::error::not a command",
];

const decode = (html: string) =>
  html
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");

/** The rendered HTML, checked for anything live, and its visible text outside code. */
function renderInert(markdown: string): { html: string; text: string } {
  const html = marked.parse(markdown, { gfm: true, async: false });
  expect(html).not.toMatch(/<a[\s>]/);
  expect(html).not.toMatch(/<img[\s>]/);
  const tags = [...html.matchAll(/<\/?([a-z0-9]+)/g)].map((match) => match[1]);
  const ours = [
    "p",
    "code",
    "strong",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "br",
    "h3",
    "h4",
    "h5",
  ];
  expect(tags.filter((tag) => !ours.includes(tag ?? ""))).toEqual([]);
  const outsideCode = decode(html.replace(/<code>[\s\S]*?<\/code>/g, " ").replace(/<[^>]+>/g, ""));
  expect(outsideCode).not.toMatch(/(^|[^\w])@\w/);
  expect(outsideCode).not.toMatch(/#\d/);
  expect(outsideCode).not.toMatch(/https?:\/\/|www\./i);
  return { html, text: decode(html.replace(/<[^>]+>/g, "")) };
}

describe("Markdown we write shows hostile text as written and keeps it inert", () => {
  it.each(HOSTILE)("as text: %s", (hostile) => {
    const { text } = renderInert(mdText(hostile));
    expect(text.replace(/\s+/g, " ").trim()).toBe(hostile.replace(/\s+/g, " ").trim());
  });

  it.each(HOSTILE)("in a table cell: %s", (hostile) => {
    const { text } = renderInert(mdTable(["Value"], [[hostile]]));
    expect(text).toContain(hostile.trim() === "`" ? "`" : hostile.split(" ")[0]);
  });

  it.each(HOSTILE)("as a code span that cannot be broken: %s", (hostile) => {
    const { html } = renderInert(`x ${codeSpan(hostile)} y`);
    const inCode = [...html.matchAll(/<code>([\s\S]*?)<\/code>/g)].map((match) =>
      decode(match[1] ?? ""),
    );
    expect(inCode).toEqual([hostile]);
  });

  it("starts no heading, list or break where a line of text starts with one", () => {
    for (const line of ["# heading", "- item", "+ item", "1. item", "---", "==="]) {
      renderInert(`${mdText(line)}\n`);
      expect(mdCell(`text\n${line}`)).not.toContain("\n");
    }
  });

  it("keeps a hostile name, reason and id inert in the plan comment", () => {
    const name =
      "[click](https://evil.example) ![p](https://evil.example/p.png) @someone #12 <b>x</b>";
    const before = load({ "incidents/a.yaml": definitionYaml() });
    const after = load({
      "incidents/a.yaml": definitionYaml({
        id: "inc-a``b`",
        name: JSON.stringify(name),
        reason: JSON.stringify("ping @ops\n# not a heading\nwww.evil.example"),
      }),
    });
    expect(after.problems).toEqual([]);
    const plan = buildPlan({
      dir: "incidents",
      head: after.definitions,
      base: { ref: "main", commit: "0123456789abcdef", ...before },
    });
    const { html, text } = renderInert(renderPlanMarkdown(plan).replace(/^<!--.*-->\n/, ""));
    expect(text).toContain(name);
    expect(html).toContain("<code>inc-a``b`</code>");
  });
});
