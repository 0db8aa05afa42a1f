/** A 1-based line and column in a file. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/**
 * Turns character offsets into line and column. Line starts are computed on first use,
 * so valid files, where no position is ever asked for, pay nothing.
 */
export class PositionIndex {
  #lineStarts: number[] | undefined;

  constructor(private readonly text: string) {}

  at(offset: number): Position {
    const starts = this.#lineStarts ?? this.#computeLineStarts();
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= clamped) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: clamped - starts[low]! + 1 };
  }

  #computeLineStarts(): number[] {
    const starts = [0];
    for (let index = 0; index < this.text.length; index++) {
      if (this.text.charCodeAt(index) === 10) starts.push(index + 1);
    }
    this.#lineStarts = starts;
    return starts;
  }
}
