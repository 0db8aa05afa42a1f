import { vi } from "vitest";

/**
 * Makes the emulator answer as another service may: the JSON answers of the requests `when`
 * picks go through `change` on their way back. In process, as `globalThis.fetch`, which a
 * client made after this call uses; the returned function puts the real one back.
 */
export function rewriteAnswers(
  when: (method: string, url: URL) => boolean,
  change: (body: unknown) => unknown,
): () => void {
  const real = globalThis.fetch;
  vi.stubGlobal("fetch", async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const request = new Request(input, init);
    const response = await real(request);
    if (!response.ok || response.status === 204 || !when(request.method, new URL(request.url))) {
      return response;
    }
    const headers = new Headers(response.headers);
    headers.delete("content-length");
    return new Response(JSON.stringify(change(await response.json())), {
      status: response.status,
      headers,
    });
  });
  return () => vi.unstubAllGlobals();
}
