// The web server `dualstate start` and `dualstate dev` run: Next.js behind a plain Node.js HTTP
// server, so that each request carries the address of its TCP connection (bin/connection-address.mjs),
// which the sign-in limiter keys on. Usage: node bin/web-server.mjs start|dev PORT [HOSTNAME]
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import next from "next";
import { installConnectionHeader, withConnectionAddress } from "./connection-address.mjs";

const [mode, portText, hostname] = process.argv.slice(2);
if ((mode !== "start" && mode !== "dev") || !/^\d+$/.test(portText ?? "")) {
  console.error("usage: node bin/web-server.mjs start|dev PORT [HOSTNAME]");
  process.exit(2);
}
const port = Number(portText);
const dev = mode === "dev";
const app = next({ dev, dir: fileURLToPath(new URL("..", import.meta.url)), hostname, port, ...(dev ? { turbopack: true } : {}) });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer(withConnectionAddress(handle, installConnectionHeader()));
// Development reloads the page over a WebSocket (hot module replacement).
if (dev) server.on("upgrade", app.getUpgradeHandler());
server.listen(port, hostname, () => console.log(`> Ready on http://${hostname ?? "localhost"}:${port}`));

// Stop accepting, let requests in flight finish for a few seconds, then go.
let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 5_000).unref();
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
