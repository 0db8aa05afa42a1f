/** Statuses whose response can carry no body. */
const BODILESS = [101, 204, 205, 304];

/** An answer refused for its size before it was read whole. */
export class ResponseTooLarge extends Error {
  constructor(
    readonly status: number,
    readonly size: string,
  ) {
    super(`response too large: ${size}`);
  }
}

/**
 * `fetch` that resolves only once the whole body has arrived, refusing one over `max` bytes
 * (by its `Content-Length`, or as it is read). ky's timeout of each attempt races the fetch,
 * so it then covers the body too: a server that answers at once and sends its body a byte at
 * a time times out, and is retried, like one that never answers.
 */
export function wholeBodyFetch(base: typeof fetch, max: number): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.body || BODILESS.includes(response.status)) return response;
    const declared = Number(response.headers.get("content-length"));
    if (declared > max) {
      void response.body.cancel().catch(() => undefined);
      throw new ResponseTooLarge(response.status, `a body of ${declared} bytes`);
    }
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > max) {
        void reader.cancel().catch(() => undefined);
        throw new ResponseTooLarge(response.status, `a body of more than ${max} bytes`);
      }
      chunks.push(value);
    }
    return new ReadResponse(
      chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks),
      {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      },
    );
  };
}

/**
 * An answer whose body has been read: its methods decode the bytes held, as `Response`'s
 * would, without a second stream over them (a copy and a stream's garbage for every page).
 * ky and the transport only read it whole; it is never cloned (no ky hook or progress).
 */
class ReadResponse extends Response {
  constructor(
    private readonly read: Uint8Array,
    init: ResponseInit,
  ) {
    super(null, init);
  }

  override readonly text = (): Promise<string> =>
    Promise.resolve(new TextDecoder().decode(this.read));

  override readonly json = (): Promise<unknown> =>
    this.text().then((text) => JSON.parse(text) as unknown);

  override readonly arrayBuffer = (): Promise<ArrayBuffer> =>
    Promise.resolve(this.read.slice().buffer);

  override readonly bytes = (): Promise<Uint8Array<ArrayBuffer>> =>
    Promise.resolve(this.read.slice());
}
