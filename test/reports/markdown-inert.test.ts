import { describe, expect, it } from "vitest";
import { codeSpan, mdCell, mdTable, mdText } from "../../src/markdown";
import { buildPlan, renderPlanMarkdown } from "../../src/plan";
import { definitionYaml, load } from "../definitions/helpers";
import { expectInert } from "./support/markdown";

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
  "ftp://evil.example/file",
  "`@someone` and x`#12`",
  "    four spaces would start a code block",
  "costs $5, or $x^2$ in math",
];

const decode = (html: string) =>
  html
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");

describe("Markdown we write shows hostile text as written and keeps it inert", () => {
  it.each(HOSTILE)("as text: %s", (hostile) => {
    const { text } = expectInert(mdText(hostile));
    expect(text.replace(/\s+/g, " ").trim()).toBe(hostile.replace(/\s+/g, " ").trim());
  });

  it.each(HOSTILE)("in a table cell: %s", (hostile) => {
    const { text } = expectInert(mdTable(["Value"], [[hostile]]));
    expect(text).toContain(hostile.trim() === "`" ? "`" : hostile.split(" ")[0]);
  });

  it.each(HOSTILE)("as a code span that cannot be broken: %s", (hostile) => {
    const { html } = expectInert(`x ${codeSpan(hostile)} y`);
    const inCode = [...html.matchAll(/<code>([\s\S]*?)<\/code>/g)].map((match) =>
      decode(match[1] ?? ""),
    );
    expect(inCode).toEqual([hostile]);
  });

  it("pads a code span only where a backtick or a space at either end needs it", () => {
    expect(codeSpan("inc-a")).toBe("`inc-a`");
    expect(codeSpan("a`b")).toBe("``a`b``");
    expect(codeSpan("`a")).toBe("`` `a ``");
    expect(codeSpan(" a ")).toBe("`  a  `");
    const { html } = expectInert(`${codeSpan(" a ")} ${codeSpan("`a")}`);
    expect(html).toContain("<code> a </code> <code>`a</code>");
  });

  it("starts no heading, list or break where a line of text starts with one", () => {
    for (const line of ["# heading", "- item", "+ item", "1. item", "---", "==="]) {
      expectInert(`${mdText(line)}\n`);
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
    const { text } = expectInert(renderPlanMarkdown(plan).replace(/^<!--.*-->\n/, ""));
    expect(text).toContain(name);
    // Named as every line names an incident: its name, then its id, both as written.
    expect(text).toContain(`${name} (inc-a\`\`b\`)`);
  });

  it("starts no workflow command where a line of text starts with one", () => {
    for (const text of ["done\n::error::injected", "done\n  ::warning file=x::injected"]) {
      const markdown = mdText(text);
      expect(markdown).not.toMatch(/^[ \t]*::/m);
      const { text: shown } = expectInert(markdown);
      expect(shown.replace(/\s+/g, " ").trim()).toBe(text.replace(/\s+/g, " "));
    }
  });

  it("escapes dollar signs, so GitHub's math reads no formula in the text", () => {
    expect(mdText("costs $5, or $x^2$ and $$y$$")).toBe(
      "costs \\$5, or \\$x^2\\$ and \\$\\$y\\$\\$",
    );
  });

  it("keeps a hostile base ref inert in the raw HTML of the plan's summary of base problems", () => {
    const ref = "main<img/src=x/onerror=alert(1)>@someone&#64;x";
    const before = load({ "incidents/a.yaml": "id: [\n" });
    expect(before.problems).not.toEqual([]);
    const after = load({ "incidents/a.yaml": definitionYaml() });
    const plan = buildPlan({
      dir: "incidents",
      head: after.definitions,
      base: { ref, commit: "0123456789abcdef", ...before },
    });
    const markdown = renderPlanMarkdown(plan).replace(/^<!--.*-->\n/, "");
    const { html, text } = expectInert(markdown);
    expect(text).toContain(`definitions at ${ref};`);
    // The ref is one code element, with no tag of its own, where GitHub finds no mention.
    expect(html).toMatch(/<summary>[^<]*<code>[^<]*<\/code>;/);
  });
});
