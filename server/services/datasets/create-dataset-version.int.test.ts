import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "@/server/persistence/testing/test-database";
import { createDatasetVersion } from "./create-dataset-version";
import { findDatasetVersion } from "./find-dataset-version";

describe.each(TEST_PROVIDERS)("createDatasetVersion on %s", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await database.dispose();
  });

  it("creates the dataset with version 1, then adds immutable versions", async () => {
    const first = await createDatasetVersion(database.db, {
      name: "  arithmetic ",
      description: "Small functions",
      source: "upload",
      createdBy: "ada@example.test",
      cases: [
        { key: "add", specification: "Write add", variables: { language: "python", retries: 2, strict: true } },
        { key: "sub", specification: "Write sub", checks: { tests: { language: "python", code: "assert sub(2, 1) == 1\n" }, rubric: "No imports" } },
      ],
    });
    expect(first.version).toBe(1);
    const second = await createDatasetVersion(database.db, { name: "arithmetic", source: "run", createdBy: "bob@example.test", cases: [{ key: "mul", specification: "Write mul", sourceRunId: "run-1" }] });
    expect(second).toMatchObject({ datasetId: first.datasetId, version: 2 });
    expect(second.versionId).not.toBe(first.versionId);

    const dataset = await database.db.dataset.findUniqueOrThrow({ where: { name: "arithmetic" }, include: { versions: { orderBy: { version: "asc" }, include: { cases: { orderBy: { position: "asc" } } } } } });
    // A later call without a description keeps the one given before.
    expect(dataset.description).toBe("Small functions");
    expect(dataset.versions.map((v) => [v.version, v.source, v.createdBy, v.cases.map((c) => c.key)])).toEqual([
      [1, "upload", "ada@example.test", ["add", "sub"]],
      [2, "run", "bob@example.test", ["mul"]],
    ]);
    expect(dataset.versions[0]!.cases[0]).toMatchObject({ position: 0, specification: "Write add", variables: { language: "python", retries: 2, strict: true }, checks: null, sourceRunId: null });
    expect(dataset.versions[0]!.cases[1]!.checks).toEqual({ tests: { language: "python", code: "assert sub(2, 1) == 1\n" }, rubric: "No imports" });
    expect(dataset.versions[1]!.cases[0]).toMatchObject({ sourceRunId: "run-1", sourceEscalationId: null });
  });

  it("gives concurrent calls distinct consecutive versions of one dataset", async () => {
    const calls = Array.from({ length: 8 }, (_, i) =>
      createDatasetVersion(database.db, { name: "raced", source: "manual", createdBy: "ada@example.test", cases: [{ key: `k${i}`, specification: `spec ${i}` }] }),
    );
    const results = await Promise.all(calls);
    expect(new Set(results.map((r) => r.datasetId)).size).toBe(1);
    expect(results.map((r) => r.version).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const versions = await database.db.datasetVersion.findMany({ where: { datasetId: results[0]!.datasetId }, include: { cases: true } });
    // Each version holds exactly the case of the call that created it.
    for (const result of results) {
      const stored = versions.find((v) => v.id === result.versionId)!;
      expect(stored.version).toBe(result.version);
      expect(stored.cases).toHaveLength(1);
    }
    expect(await database.db.dataset.count({ where: { name: "raced" } })).toBe(1);
  });

  it("refuses bad input with the field named, storing nothing", async () => {
    const base = { name: "refused", source: "manual" as const, createdBy: "ada@example.test" };
    await expect(createDatasetVersion(database.db, { ...base, cases: [] })).rejects.toThrow("cases: a dataset version needs at least one case");
    await expect(createDatasetVersion(database.db, { ...base, cases: [{ key: "a", specification: "x" }, { key: "a", specification: "y" }] })).rejects.toThrow('cases[1].key: "a" is already the key of cases[0]');
    await expect(createDatasetVersion(database.db, { ...base, cases: [{ key: "a", specification: " " }] })).rejects.toThrow("cases[0].specification: must not be empty");
    await expect(createDatasetVersion(database.db, { ...base, cases: [{ key: "", specification: "x" }] })).rejects.toThrow("cases[0].key: is required");
    await expect(createDatasetVersion(database.db, { ...base, cases: [{ key: "a", specification: "nul\u0000" }] })).rejects.toThrow("NUL");
    await expect(createDatasetVersion(database.db, { ...base, name: "../etc", cases: [{ key: "a", specification: "x" }] })).rejects.toThrow(/^name: /);
    await expect(createDatasetVersion(database.db, { ...base, source: "magic" as "manual", cases: [{ key: "a", specification: "x" }] })).rejects.toThrow(/^source: /);
    expect(await database.db.dataset.count({ where: { name: { in: ["refused", "../etc"] } } })).toBe(0);
  });

  it("finds a version by the dataset's name: the newest, or the one numbered", async () => {
    const newest = await findDatasetVersion(database.db, { name: " arithmetic" });
    expect(newest).toMatchObject({ version: 2, cases: [{ key: "mul", specification: "Write mul", sourceRunId: "run-1" }] });
    const first = await findDatasetVersion(database.db, { name: "arithmetic", version: 1 });
    expect(first.cases.map((item) => item.key)).toEqual(["add", "sub"]);
    expect(first.cases[1]!.checks).toEqual({ tests: { language: "python", code: "assert sub(2, 1) == 1\n" }, rubric: "No imports" });
    const rows = await database.db.datasetCase.findMany({ where: { datasetVersionId: first.versionId }, orderBy: { position: "asc" }, select: { id: true } });
    expect(first.cases.map((item) => item.id)).toEqual(rows.map((row) => row.id));
    await expect(findDatasetVersion(database.db, { name: "arithmetic", version: 9 })).rejects.toThrow('Dataset version "arithmetic v9" was not found');
    await expect(findDatasetVersion(database.db, { name: "nothing" })).rejects.toThrow('Dataset "nothing" was not found');
  });
});
