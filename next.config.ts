import type { NextConfig } from "next";

// Deliberately imports nothing that reads the environment: `next build` runs without a
// database or any Dualstate configuration, which is validated when the server starts.
const nextConfig: NextConfig = {
  // The QuickJS sandbox loads its WebAssembly from its own package folder at runtime, which
  // bundling would break. (better-sqlite3, pg and @prisma/client are external by default.)
  serverExternalPackages: ["quickjs-emscripten-core", "@jitl/quickjs-wasmfile-release-sync"],
  poweredByHeader: false,
};

export default nextConfig;
