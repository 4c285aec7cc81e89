import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

const shared = {
  environment: "node",
  pool: "forks",
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // Run starts refuse workflows whose model is not configured (server/models); tests that queue
  // runs of model steps (never executed against this address) get one from the environment.
  // Tests of the refusal clear it (see server/api/routers/models.test.ts).
  env: { OPENAI_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_MODEL: "test-model" },
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
        // Tests that time worker processes against leases, or disturb shared infrastructure
        // (restarting the PostgreSQL server), run one file at a time after every other file:
        // the rest of the suite's load would make leases expire and a restart would break it.
        extends: true,
        test: { ...shared, name: "exclusive", include: ["**/*.exclusive.test.ts"], exclude: ["node_modules/**"], fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
