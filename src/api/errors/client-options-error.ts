/** `createClient` was given options it cannot work with. The text never includes the API key. */
export class ClientOptionsError extends Error {
  override name = "ClientOptionsError";
}
