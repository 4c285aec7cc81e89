// How the web server tells the app the address of each request's TCP connection. Next.js route
// handlers see only headers, and every header a client sends can be forged, so the server writes
// the socket's address under a header name drawn at random when the process starts (kept on
// globalThis, where the app reads it: server/auth/connection-peer.ts) and deletes any header with
// that prefix a client sent. A client cannot guess the name, so it cannot plant an address.
import { randomBytes } from "node:crypto";

export const CONNECTION_HEADER_PREFIX = "x-dualstate-connection-";
export const CONNECTION_HEADER_KEY = Symbol.for("dualstate.connectionAddressHeader");

/** This process's header name, drawn on first use. */
export function installConnectionHeader(target = globalThis) {
  target[CONNECTION_HEADER_KEY] ??= `${CONNECTION_HEADER_PREFIX}${randomBytes(16).toString("hex")}`;
  return target[CONNECTION_HEADER_KEY];
}

/** Wraps a Node.js request handler: the connection's address in `header`, client-sent look-alikes removed. */
export function withConnectionAddress(handler, header) {
  return (request, response, ...rest) => {
    for (const name of Object.keys(request.headers)) {
      if (name.startsWith(CONNECTION_HEADER_PREFIX)) delete request.headers[name];
    }
    request.headers[header] = request.socket.remoteAddress ?? "";
    return handler(request, response, ...rest);
  };
}
