import { describe, expect, it } from "vitest";
import { GUARD_CATALOGUE, GUARD_KINDS, ON_FAILURE, ON_FAILURE_CATALOGUE, searchCatalogue, STEP_CATALOGUE, STEP_TYPES, GENERATOR_CATALOGUE, GENERATOR_KINDS } from "./catalogue";

describe("the catalogue of workflow parts", () => {
  it("explains every step type, guard kind, generator kind and failure policy in one line", () => {
    for (const [names, entries] of [
      [STEP_TYPES, STEP_CATALOGUE],
      [GUARD_KINDS, GUARD_CATALOGUE],
      [GENERATOR_KINDS, GENERATOR_CATALOGUE],
      [ON_FAILURE, ON_FAILURE_CATALOGUE],
    ] as const) {
      expect(Object.keys(entries).sort()).toEqual([...names].sort());
      for (const entry of Object.values(entries)) {
        expect(entry.title.length).toBeGreaterThan(0);
        expect(entry.summary).not.toContain("\n");
        expect(entry.summary.length).toBeLessThanOrEqual(140);
      }
    }
  });

  it("finds entries by every word of the query, in name, title or summary", () => {
    expect(searchCatalogue(GUARD_CATALOGUE, "")).toEqual([...GUARD_KINDS]);
    expect(searchCatalogue(GUARD_CATALOGUE, "JSON")).toEqual(["json_schema"]);
    expect(searchCatalogue(GUARD_CATALOGUE, "tests sandbox")).toEqual(["test", "tdd"]);
    expect(searchCatalogue(GUARD_CATALOGUE, "tests sandbox dependency")).toEqual(["tdd"]);
    expect(searchCatalogue(GUARD_CATALOGUE, "person")).toEqual(["security", "human"]);
    expect(searchCatalogue(STEP_CATALOGUE, "no model")).toEqual(["code"]);
    expect(searchCatalogue(STEP_CATALOGUE, "nothing like this")).toEqual([]);
  });
});
