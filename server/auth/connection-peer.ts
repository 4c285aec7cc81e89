/**
 * The address of the TCP connection a request came on, as bin/web-server.mjs reports it: under a
 * header name it draws at random per process and keeps on globalThis (see bin/connection-address.mjs).
 * Null when the app runs without that server (a bare `next start`): then no header can be believed.
 */
const CONNECTION_HEADER_KEY = Symbol.for("dualstate.connectionAddressHeader");

export function connectionPeer(headers: Headers): string | null {
  const name = (globalThis as Record<symbol, unknown>)[CONNECTION_HEADER_KEY];
  if (typeof name !== "string") return null;
  return headers.get(name) || null;
}
