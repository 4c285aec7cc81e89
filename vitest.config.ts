import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

const shared = {
  environment: "node",
  pool: "forks",
  testTimeout: 30_000,
  hookTimeout: 60_000,
} as const;

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    projects: [
      {
        extends: true,
        test: { ...shared, name: "unit", sequence: { groupOrder: 0 }, include: ["**/*.test.ts"], exclude: ["node_modules/**", ".next/**", "e2e/**", "**/*.exclusive.test.ts"] },
      },
      {
        // Tests that disturb shared infrastructure (restarting the PostgreSQL server) run alone,
        // after every other test file has finished.
        extends: true,
        test: { ...shared, name: "exclusive", include: ["**/*.exclusive.test.ts"], exclude: ["node_modules/**"], fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
