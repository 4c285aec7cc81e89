import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/server/persistence/testing/test-database";
import type { Actor } from "../trpc";
import { createTestCaller, TEST_DATABASES } from "../testing/test-caller";

const person = (role: Actor["role"]): Actor => ({ id: `u-${role}`, email: `${role}@example.com`, role, via: "session" });

for (const { provider, enabled } of TEST_DATABASES) {
  describe.runIf(enabled)(`the price table on ${provider}`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase(provider);
    });
    afterAll(async () => {
      await database?.dispose();
    });
    const as = (role: Actor["role"]) => createTestCaller(database.db, person(role));

    it("an admin sets, replaces and deletes a price, each change audited with the one before", async () => {
      await as("admin").prices.save({ model: "  gpt-test  ", inputUsdPerMillion: 2.5, outputUsdPerMillion: 10 });
      await as("admin").prices.save({ model: "gpt-test", inputUsdPerMillion: 3, outputUsdPerMillion: 12 });
      expect(await as("viewer").prices.list()).toEqual([{ model: "gpt-test", inputUsdPerMillion: 3, outputUsdPerMillion: 12, updatedBy: "admin@example.com", updatedAt: expect.any(Date) }]);
      await as("admin").prices.delete({ model: "gpt-test" });
      expect(await as("admin").prices.list()).toEqual([]);
      const events = await database.db.auditEvent.findMany({ where: { target: "model_price:gpt-test" }, orderBy: { at: "asc" } });
      expect(events.map((event) => [event.action, event.actorEmail, event.detail])).toEqual([
        ["model_price.saved", "admin@example.com", { inputUsdPerMillion: 2.5, outputUsdPerMillion: 10 }],
        ["model_price.saved", "admin@example.com", { inputUsdPerMillion: 3, outputUsdPerMillion: 12, previous: { inputUsdPerMillion: 2.5, outputUsdPerMillion: 10 } }],
        ["model_price.deleted", "admin@example.com", { inputUsdPerMillion: 3, outputUsdPerMillion: 12 }],
      ]);
    });

    it("refuses anyone but an admin a change", async () => {
      for (const role of ["viewer", "reviewer"] as const) {
        await expect(as(role).prices.save({ model: "m", inputUsdPerMillion: 1, outputUsdPerMillion: 1 })).rejects.toMatchObject({ code: "FORBIDDEN" });
        await expect(as(role).prices.delete({ model: "m" })).rejects.toMatchObject({ code: "FORBIDDEN" });
      }
      await expect(createTestCaller(database.db, null).prices.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    });

    it("names the field of bad input", async () => {
      await expect(as("admin").prices.save({ model: "m", inputUsdPerMillion: -1, outputUsdPerMillion: 1 })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("inputUsdPerMillion") });
      await expect(as("admin").prices.save({ model: " ", inputUsdPerMillion: 1, outputUsdPerMillion: 1 })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("model") });
      await expect(as("admin").prices.save({ model: "m", inputUsdPerMillion: 1, outputUsdPerMillion: 1e9 })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("outputUsdPerMillion") });
      await expect(as("admin").prices.delete({ model: "never-priced" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    });
  });
}
