import { UserError } from "../../user-error";

/** `createClient` was given options it cannot work with. The text never includes the API key. */
export class ClientOptionsError extends UserError {
  override name = "ClientOptionsError";
}
