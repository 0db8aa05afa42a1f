import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";

/** A page's text without its fenced code blocks, where a `](…)` is no link. */
function withoutCode(markdown: string): string {
  return markdown.replace(/^\s*```[\s\S]*?^\s*```/gm, "");
}

/** A heading's anchor, as GitHub and npm make it. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, "")
    .replaceAll(" ", "-");
}

function anchors(file: string): Set<string> {
  const text = withoutCode(readFileSync(file, "utf8"));
  return new Set([...text.matchAll(/^#+ (.*)$/gm)].map((match) => slug(match[1] ?? "")));
}

/** The relative links of a page (`page` under `root`) with their targets, web links left out. */
export function relativeLinks(root: string, page: string): { link: string; target: string }[] {
  const text = withoutCode(readFileSync(join(root, page), "utf8"));
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].flatMap(([, link]) => {
    if (!link || /^[a-z]+:/i.test(link)) return [];
    const [path = ""] = link.split("#");
    return [{ link, target: path === "" ? page : normalize(join(dirname(page), path)) }];
  });
}

/**
 * The links of a page under `root` that lead nowhere: to a file that is not there, or to a
 * heading its page lacks. Empty when every link resolves.
 */
export function brokenLinks(root: string, page: string): string[] {
  return relativeLinks(root, page).flatMap(({ link, target }) => {
    if (!existsSync(join(root, target))) return [`${page}: ${link}`];
    const anchor = link.split("#")[1];
    if (
      anchor !== undefined &&
      target.endsWith(".md") &&
      !anchors(join(root, target)).has(anchor)
    ) {
      return [`${page}: ${link}`];
    }
    return [];
  });
}
