import type { RunningEmulator } from "../../../src/emulator";
import { ACCOUNT, API_KEY } from "./harness";

/**
 * Every group id of a check, read one page after another with plain fetch: an
 * independent reader to compare the concurrent export with.
 */
export async function groupIdsPageByPage(running: RunningEmulator, checkId: string) {
  const ids: string[] = [];
  for (let page = 1; ; page += 1) {
    const response = await fetch(
      `${running.url}/v1/error-groups/checks/${checkId}?limit=100&page=${page}`,
      { headers: { authorization: `Bearer ${API_KEY}`, "x-service-account": ACCOUNT } },
    );
    const body = (await response.json()) as { id: string }[];
    ids.push(...body.map((g) => g.id));
    if (body.length < 100) return ids;
  }
}
