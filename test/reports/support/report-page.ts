import { pathToFileURL } from "node:url";
import type { BrowserContext, Page } from "playwright-core";

export interface OpenedReport {
  page: Page;
  /** Every request other than the file itself: blocked, and expected to stay empty. */
  attempted: string[];
  /** Console errors and uncaught exceptions: CSP violations show up here too. */
  errors: string[];
}

/**
 * Opens a report file with every network request blocked and recorded, and waits until
 * its script has drawn the tables and charts (`<html data-ready>`).
 */
export async function openReport(context: BrowserContext, file: string): Promise<OpenedReport> {
  const url = pathToFileURL(file).href;
  const attempted: string[] = [];
  const errors: string[] = [];
  const page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  await page.route("**/*", (route) => {
    const requested = route.request().url();
    if (requested === url) return route.continue();
    attempted.push(requested);
    return route.abort();
  });
  await page.goto(url, { waitUntil: "load" });
  try {
    await page.waitForSelector("html[data-ready]", { state: "attached", timeout: 20_000 });
  } catch (error) {
    throw new Error(`${file} did not finish drawing; page errors: ${JSON.stringify(errors)}`, {
      cause: error,
    });
  }
  return { page, attempted, errors };
}

/** How many pixels of a chart's canvas are close to a colour (#rrggbb): proof it was drawn. */
export async function pixelsOfColour(page: Page, chart: string, hex: string): Promise<number> {
  return page.locator(`${chart} canvas`).evaluate((canvas, colour) => {
    // The DOM's types are not in this project's lib; this is the part of a canvas used.
    const c = canvas as unknown as {
      width: number;
      height: number;
      getContext(kind: "2d"): { getImageData(...box: number[]): { data: Uint8ClampedArray } };
    };
    const want = [1, 3, 5].map((i) => Number.parseInt(colour.slice(i, i + 2), 16));
    const { data } = c.getContext("2d")!.getImageData(0, 0, c.width, c.height);
    let count = 0;
    for (let i = 0; i < data.length; i += 4) {
      // The canvas is transparent and image data is not premultiplied, so a translucent
      // band keeps its colour and only its alpha is low.
      if (data[i + 3]! < 50) continue;
      if (want.every((w, k) => Math.abs(w - data[i + k]!) < 40)) count += 1;
    }
    return count;
  }, hex);
}

/** The ids in a table that a browser laid out over more than one line (there must be none). */
export async function wrappedIds(page: Page): Promise<string[]> {
  return page
    .locator("code.id")
    .evaluateAll((codes) =>
      codes
        .filter((code) => code.getClientRects().length > 1)
        .map((code) => code.textContent ?? ""),
    );
}

/** The visible rows of a data table, as cell texts. */
export async function tableRows(page: Page, table: string): Promise<string[][]> {
  return page
    .locator(`[data-table="${table}"] tbody tr`)
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll("td")].map((td) => td.textContent ?? "")),
    );
}
