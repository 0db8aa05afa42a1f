import { Writable } from "node:stream";
import { finished } from "node:stream/promises";

/**
 * stdout held until the command succeeds or releases it, so a failure leaves only the error
 * document; then it streams with backpressure, and a closed pipe fails the writes.
 */
export class HeldOutput extends Writable {
  readonly #target: Writable;
  readonly #onTargetError = (error: Error) => this.destroy(error);
  #held: Buffer[] | undefined = [];

  constructor(target: Writable) {
    super({ decodeStrings: true });
    this.#target = target;
    target.on("error", this.#onTargetError);
    // Reported to the writer (openSink listens) and by finish(); never an uncaught error.
    this.on("error", () => {});
  }

  /** Whether anything may already have reached the target. */
  get released(): boolean {
    return this.#held === undefined;
  }

  /** Sends what was held and lets every later write through. */
  release(): void {
    const held = this.#held;
    if (held === undefined) return;
    this.#held = undefined;
    if (held.length > 0) this.#target.write(Buffer.concat(held));
  }

  /** Forgets what was held (the target has seen none of it) and stops listening to the target. */
  discard(): void {
    if (this.#held !== undefined) this.#held = [];
    this.#target.off("error", this.#onTargetError);
  }

  /** Sends everything written, then stops listening to the target, which stays open. */
  async finish(): Promise<void> {
    this.release();
    this.end();
    try {
      await finished(this);
    } finally {
      this.#target.off("error", this.#onTargetError);
    }
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error) => void): void {
    if (this.#held !== undefined) {
      this.#held.push(chunk);
      done();
    } else if (this.#target.write(chunk)) {
      done();
    } else {
      this.#target.once("drain", () => done());
    }
  }
}
