/**
 * Issue 54: a run killed between a write's intent and its send leaves that write held back for
 * its window (ARCHITECTURE.md, "Never twice, by design"): the next run sends it again only once
 * a read shows it or the window has passed, and says so. A kill loop's next run may therefore
 * fail on exactly those writes, which is the design and not a fault.
 */
const HELD =
  /No create is sent again until|It is not sent again until|is not posted again before|may not have been posted/;

/** Whether a run's failure lines are each a write held back for its window, and there is one. */
export function onlyHeldBack(output: string): boolean {
  const failures = output.split("\n").filter((line) => /^✗ /.test(line));
  return failures.length > 0 && failures.every((line) => HELD.test(line));
}

/** Whether a plain `pulumi up`'s output names a write held back for its window. */
export function namesHeldBack(output: string): boolean {
  return HELD.test(output);
}

/** What a round must hold whether or not writes are held back: nothing made or told twice. */
export function atMostOnce(held: {
  incidents: number;
  updates: number;
  notifications: number;
  notifiedTwice: number;
  names?: number;
}): boolean {
  return (
    held.notifiedTwice === 0 &&
    held.notifications === held.updates &&
    (held.names === undefined || held.names === held.incidents)
  );
}
