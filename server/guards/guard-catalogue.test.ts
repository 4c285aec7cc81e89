import { describe, expect, it } from "vitest";
import { GUARD_CATALOGUE, GUARD_KINDS } from "../engine/domain/catalogue";
import { guardOptionNames, parseGuardSpec } from "./guard-spec";

describe("the palette's guard entries match the guard parser", () => {
  it.each(GUARD_KINDS)("%s lists exactly the options its schema accepts", (kind) => {
    expect(GUARD_CATALOGUE[kind].options.map((option) => option.name).sort()).toEqual(guardOptionNames(kind).sort());
  });

  it.each(GUARD_KINDS.filter((kind) => kind !== "llm_judge"))("a new %s guard (its starter options) parses", (kind) => {
    expect(() => parseGuardSpec({ kind, ...GUARD_CATALOGUE[kind].starter })).not.toThrow();
  });

  it("a new llm_judge guard asks for its rubric, the one thing only the author can write", () => {
    expect(() => parseGuardSpec({ kind: "llm_judge", ...GUARD_CATALOGUE.llm_judge.starter })).toThrow("guard.rubric: must describe what the judge checks");
  });
});
