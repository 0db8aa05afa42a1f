import { startTestServer, type TestServer } from "../../support/http-server";

/**
 * A proxy to `target` that completes the service objects of PUT bodies with `name` and
 * `accountId`, which releases before 0.3 did not send and the service requires. It lets a
 * test make state with such a release (0.1), as its users made it against servers that took
 * those bodies; everything else passes through as it is.
 */
export async function startCompletingProxy(target: string, accountId: string): Promise<TestServer> {
  return startTestServer(async (request, response) => {
    let body = request.body;
    if (request.method === "PUT" && body !== "") {
      const parsed = JSON.parse(body) as { services?: { id: string; name?: string }[] };
      for (const service of parsed.services ?? []) {
        Object.assign(service, { name: service.name ?? service.id, accountId });
      }
      body = JSON.stringify(parsed);
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === "string" && !["host", "content-length"].includes(name)) {
        headers.set(name, value);
      }
    }
    const answer = await fetch(new URL(request.rawPath, target), {
      method: request.method,
      headers,
      ...(body === "" ? {} : { body }),
    });
    response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "" });
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
}
