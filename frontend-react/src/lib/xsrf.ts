// The XSRF token every state-changing call carries (the server's `platform::csrf`): read
// from its cookie, the one place the browser code does so.

/** The cookie over plain HTTP (development, the end-to-end tests); over HTTPS the shop
 * names it `__Host-XSRF-TOKEN` so that no other host or plain-HTTP page can set it. */
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const SECURE_XSRF_COOKIE = `__Host-${XSRF_COOKIE}`;
export const XSRF_HEADER = 'X-XSRF-TOKEN';

/** Value of a cookie, URL-decoded, or undefined. */
export function readCookie(name: string, cookieString: string = document.cookie): string | undefined {
  for (const part of cookieString.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

/** The token the shop handed out: the `__Host-` cookie when there is one. A new one means a
 * new session (signed in, password changed, signed out). */
export function readXsrfToken(cookieString: string = document.cookie): string | undefined {
  return readCookie(SECURE_XSRF_COOKIE, cookieString) ?? readCookie(XSRF_COOKIE, cookieString);
}
