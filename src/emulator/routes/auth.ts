import { timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import type { AccountHeader } from "../behaviour";
import { ErrorResponse } from "../http-error";
import type { AccountStore } from "../store/accounts";

export type AccountEnv = { Variables: { accountId: string } };

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="monitoring-api"' };

function bearerToken(header: string | undefined): string | undefined {
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}

/**
 * Spec 5: `Authorization: Bearer <key>` is required (401) and the key belongs to one
 * account. `x-service-account`, when sent, must name that account (403); with the behaviour
 * `accountHeader: required` it must be sent (401), as with a personal API key. The key is
 * never echoed in an error.
 */
export function apiKeyAuth(
  accounts: AccountStore,
  accountHeader: () => AccountHeader = () => "optional",
): MiddlewareHandler<AccountEnv> {
  return async (c, next) => {
    const header = c.req.header("authorization");
    if (header === undefined) {
      throw new ErrorResponse(
        401,
        "missing Authorization header: send Authorization: Bearer <API key>",
        CHALLENGE,
      );
    }
    const key = bearerToken(header);
    if (key === undefined) {
      throw new ErrorResponse(
        401,
        "the Authorization header must use the Bearer scheme: Authorization: Bearer <API key>",
        CHALLENGE,
      );
    }
    const accountId = accounts.accountForKey(key);
    if (accountId === undefined) {
      throw new ErrorResponse(401, "the API key is not valid", CHALLENGE);
    }
    const claimed = c.req.header("x-service-account");
    if (claimed === undefined && accountHeader() === "required") {
      throw new ErrorResponse(
        401,
        "this API key is a personal key: send the account it acts for in x-service-account",
        CHALLENGE,
      );
    }
    if (claimed !== undefined && claimed !== accountId) {
      throw new ErrorResponse(
        403,
        `x-service-account ${claimed.slice(0, 200)} does not match the account of this API key`,
      );
    }
    c.set("accountId", accountId);
    await next();
  };
}

/** The control API takes its own admin token, compared in constant time. */
export function adminTokenAuth(adminToken: string): MiddlewareHandler {
  const expected = Buffer.from(adminToken, "utf8");
  return async (c, next) => {
    const token = bearerToken(c.req.header("authorization"));
    const given = Buffer.from(token ?? "", "utf8");
    if (
      token === undefined ||
      given.length !== expected.length ||
      !timingSafeEqual(given, expected)
    ) {
      throw new ErrorResponse(
        401,
        "the control API needs the admin token: send Authorization: Bearer <admin token> (printed at start, or --admin-token)",
        CHALLENGE,
      );
    }
    await next();
  };
}
