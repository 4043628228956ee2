import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

// The web host's per-run secret. Loopback is not a boundary between local users or processes:
// before it, any local process that sent `Origin: http://127.0.0.1:<port>` had the whole API
// (list, delete, the answer log, imports of any file the host's user could read). Now the host
// makes 32 random bytes at start and prints them once, in the URL the user opens
// (`http://127.0.0.1:<port>/?token=…`). The first request carrying the token is answered with an
// HttpOnly SameSite=Strict cookie holding it and a redirect to the same page without the token, so
// it leaves the address bar and is never in a Referer; every other request (static files, the
// WebSocket upgrade, uploads) must bring the cookie. HttpOnly: a script injected into the page
// cannot read it. SameSite=Strict: another site's page cannot make the browser send it.
//
// Cookies are scoped by host name, not port: a page served by another program on 127.0.0.1 is
// sent this cookie when the user visits it in the same browser. The name carries the port so two
// hosts do not overwrite each other's cookie; what such a program could do with it is still
// stopped for browsers by the Origin checks, not for its own requests: a documented limit.

export const TOKEN_PARAM = "token";

export interface SessionAuth {
  /** The secret, base64url: what the URL carries and the cookie holds. */
  readonly token: string;
  /** The cookie's name (per port). */
  readonly cookieName: string;
  /** `name=value`, for in-process clients (tests, benches) that send their own Cookie header. */
  readonly cookie: string;
  /** Whether the request carries the session cookie (constant-time comparison). */
  hasSession(req: IncomingMessage): boolean;
  /** Whether this text is the token (constant-time comparison). */
  isToken(candidate: string): boolean;
  /** The Set-Cookie header value that starts a session. */
  setCookieHeader(): string;
}

// Hashing both sides first gives timingSafeEqual equal lengths whatever was sent, so neither the
// comparison nor an early length check tells an attacker how much of a guess was right.
function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/** The value of one cookie from a Cookie header, or null. */
export function readCookie(header: string | undefined, name: string): string | null {
  if (header === undefined) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export function createSessionAuth(port: number, token: string = randomBytes(32).toString("base64url")): SessionAuth {
  const expected = digest(token);
  const isToken = (candidate: string): boolean => timingSafeEqual(digest(candidate), expected);
  const cookieName = `clausegraph-session-${port}`;
  return {
    token,
    cookieName,
    cookie: `${cookieName}=${token}`,
    isToken,
    hasSession(req) {
      const value = readCookie(req.headers.cookie, cookieName);
      return value !== null && isToken(value);
    },
    setCookieHeader() {
      // No Max-Age: a session cookie, gone when the browser closes; the secret dies with the host anyway.
      return `${cookieName}=${token}; HttpOnly; SameSite=Strict; Path=/`;
    },
  };
}
