import { Writable } from "node:stream";
import { describe, expect, test } from "vitest";
import { errorExportProgress } from "../../src/cli/commands/report-progress";
import { formatSeconds, secondsLeft } from "../../src/cli/commands/time-estimate";

/** A terminal as cli-progress sees one: a TTY 120 columns wide that keeps what it is sent. */
function terminal() {
  const written: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      written.push(String(chunk));
      done();
    },
  }) as Writable & { isTTY: boolean; columns: number };
  stream.isTTY = true;
  stream.columns = 120;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: terminal escape sequences
  return { stream, text: () => written.join("").replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "") };
}

describe("the time left of a long read", () => {
  test("is paced by the rate limit while the client's limiter lets a burst through", () => {
    // 600 requests in 2 s is a burst; 600 per minute is the pace that holds.
    expect(
      secondsLeft({ done: 600, remaining: 9_400, elapsedMs: 2_000, requestsPerMinute: 600 }),
    ).toBe(940);
  });

  test("is paced by the requests so far when the service is slower than the limit", () => {
    expect(
      secondsLeft({ done: 10, remaining: 90, elapsedMs: 10_000, requestsPerMinute: 600 }),
    ).toBe(90);
  });

  test("before any answer it assumes the rate limit", () => {
    expect(secondsLeft({ done: 0, remaining: 120, elapsedMs: 0, requestsPerMinute: 1_200 })).toBe(
      6,
    );
  });

  test("reads as seconds, minutes or hours", () => {
    expect([0, 45, 185, 1_000, 3_720].map(formatSeconds)).toEqual([
      "0s",
      "45s",
      "3m 05s",
      "16m 40s",
      "1h 02m",
    ]);
  });

  test("ends the progress bar of --details, at the pace of the requests so far", () => {
    const { stream, text } = terminal();
    let now = 0;
    const display = errorExportProgress(stream as unknown as NodeJS.WriteStream, {
      checks: ["chk-api"],
      pageSize: 100,
      details: true,
      requestsPerMinute: 600,
      now: () => now,
    });
    display.onGroups?.("chk-api", 1, 100);
    display.onGroups?.("chk-api", 2, 20);
    display.onCheckDone?.("chk-api");
    for (let detail = 0; detail < 10; detail += 1) display.onDetail?.();
    now = 12_000;
    display.onDetail?.();
    display.stop();

    // 13 requests in 12 s: 109 details left at about 1.08 a second.
    expect(text()).toContain("11/120 fetched · 1m 41s left");
    expect(text()).toContain("120/120 listed");
  });
});
