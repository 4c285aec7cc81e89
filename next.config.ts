import type { NextConfig } from "next";
import { DATA_CONTENT_SECURITY_POLICY, STATIC_SECURITY_HEADERS } from "./server/api/security-headers";

// Deliberately imports nothing that reads the environment: `next build` runs without a
// database or any Dualstate configuration, which is validated when the server starts.
const nextConfig: NextConfig = {
  // The QuickJS sandbox loads its WebAssembly from its own package folder at runtime, which
  // bundling would break. (better-sqlite3, pg and @prisma/client are external by default.)
  serverExternalPackages: ["quickjs-emscripten-core", "@jitl/quickjs-wasmfile-release-sync"],
  poweredByHeader: false,
  // Prometheus scrapes /metrics by convention; the route handler is app/api/metrics (off unless DUALSTATE_METRICS=1).
  async rewrites() {
    return { beforeFiles: [{ source: "/metrics", destination: "/api/metrics" }], afterFiles: [], fallback: [] };
  },
  // Security headers on every response; pages get their Content-Security-Policy (with a nonce)
  // from proxy.ts, the APIs and static files the strict one for data here.
  async headers() {
    return [
      { source: "/:path*", headers: [...STATIC_SECURITY_HEADERS] },
      { source: "/api/:path*", headers: [{ key: "Content-Security-Policy", value: DATA_CONTENT_SECURITY_POLICY }] },
      { source: "/_next/:path*", headers: [{ key: "Content-Security-Policy", value: DATA_CONTENT_SECURITY_POLICY }] },
    ];
  },
};

export default nextConfig;
