import type { IncomingMessage } from "node:http";
import {
  type AuthInfo,
  bearerAuthChallengeResponse,
  hostHeaderValidationResponse,
  OAuthError,
  OAuthErrorCode,
  originValidationResponse,
  verifyBearerToken,
} from "@modelcontextprotocol/server";
import type { Principal } from "../toolset.js";
import { plainResponse } from "./bridge.js";
import type { Principals } from "./principals.js";
import type { TokenRate } from "./rate.js";

// What a request to /mcp passes before any of it is read, in this order: its Host (a name this
// server answers to) and its Origin (none, or one allowed), both refused with 403 as DNS
// rebinding; its bearer token (401 with the Bearer challenge, the SDK's); its token's rate (429).

export interface GateOptions {
  hosts: string[];
  origins: string[];
  principals: Principals;
  rate: TokenRate;
}

/** A request let through: who it is, as the SDK's handlers are told. */
export interface Admitted {
  principal: Principal;
  authInfo: AuthInfo;
}

/** How long a token's AuthInfo is good for: one request. */
const AUTH_SECONDS = 300;

/** The principal the request's token is, as the SDK's verifier: an unknown token is invalid_token. */
function verifier(principals: Principals) {
  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const principal = principals.find(token);
      if (!principal) throw new OAuthError(OAuthErrorCode.InvalidToken, "unknown or revoked token");
      return {
        token,
        clientId: principal.name,
        scopes: [],
        expiresAt: Math.floor(Date.now() / 1000) + AUTH_SECONDS,
        extra: { principal },
      };
    },
  };
}

/** The principal a handler's AuthInfo carries (set by the gate). */
export function principalOf(authInfo: AuthInfo | undefined): Principal {
  const principal = authInfo?.extra?.principal as Principal | undefined;
  if (!principal) throw new Error("a request reached the MCP server without passing the gate");
  return principal;
}

/** The request let through, or the answer that refuses it, with the token's name once known. */
export async function admit(
  req: IncomingMessage,
  options: GateOptions,
): Promise<Admitted | { refused: Response; token?: string }> {
  // Only the headers the checks read: the request's body is not read before it is let through.
  const headers = new Headers();
  for (const name of ["host", "origin"] as const) {
    const value = req.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  const probe = new Request("http://gate/", { headers });
  const rebinding =
    hostHeaderValidationResponse(probe, options.hosts) ?? originValidationResponse(probe, options.origins);
  if (rebinding) return { refused: rebinding };
  let authInfo: AuthInfo;
  try {
    authInfo = await verifyBearerToken(req.headers.authorization, { verifier: verifier(options.principals) });
  } catch (error) {
    return { refused: bearerAuthChallengeResponse(error) };
  }
  const principal = principalOf(authInfo);
  const wait = options.rate.take(principal.name);
  if (wait !== undefined)
    return {
      refused: plainResponse(
        429,
        { error: `too many requests for this token (--token-rate); try again in ${wait} s` },
        { "retry-after": String(wait) },
      ),
      token: principal.name,
    };
  return { principal, authInfo };
}
