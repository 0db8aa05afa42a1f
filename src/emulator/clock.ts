import { ErrorResponse } from "./http-error";
import { resolveInstant } from "./time";

/** The instant the emulator takes for now, and how far it stands from the real one. */
export interface ClockReading {
  /** The emulator's now, ISO 8601 UTC. */
  readonly now: string;
  /** How far the emulator's now is ahead of the real clock (negative: behind), in ms. */
  readonly offsetMs: number;
}

/** A move of the clock: to an instant, or forward by some minutes. */
export type ClockMove = { readonly at: string } | { readonly advanceMinutes: number };

/**
 * The emulator's clock: the real one (or the one a test pinned), moved by an offset that the
 * control API sets, so a test can watch a maintenance remind, start and end in milliseconds.
 * Moved back, nothing already sent is sent again.
 */
export class EmulatorClock {
  private offsetMs = 0;

  constructor(private readonly base: () => Date) {}

  readonly now = (): Date => new Date(this.base().getTime() + this.offsetMs);

  read(): ClockReading {
    return { now: this.now().toISOString(), offsetMs: this.offsetMs };
  }

  /** Sets the clock to `at` (an ISO date-time, `now` or a time relative to the emulator's now) or moves it forward. */
  move(move: ClockMove): ClockReading {
    const current = this.now().getTime();
    const target =
      "at" in move ? resolveInstant(move.at, this.now()) : current + move.advanceMinutes * 60_000;
    if (
      target === undefined ||
      !Number.isFinite(target) ||
      target < MIN_INSTANT_MS ||
      target > MAX_INSTANT_MS
    ) {
      throw new ErrorResponse(
        400,
        "at: must be an ISO date-time, `now` or a relative time such as +2h, in the years 0000 to 9999",
      );
    }
    this.offsetMs += target - current;
    return this.read();
  }
}

// Every instant the emulator answers must be writable as an ISO date-time.
const MIN_INSTANT_MS = Date.parse("0000-01-01T00:00:00Z");
const MAX_INSTANT_MS = Date.parse("9999-12-31T00:00:00Z");
