import { describe, expect, it } from "vitest";
import { GENERATOR_KINDS as SERVER_GENERATORS } from "@/server/generators/generator-spec";
import { GUARD_KINDS as SERVER_GUARDS } from "@/server/guards/guard-spec";
import { GENERATOR_KINDS, GUARD_KINDS } from "./kinds";

describe("the inspector's choices", () => {
  it("are the kinds the server accepts", () => {
    expect(GUARD_KINDS).toEqual(SERVER_GUARDS);
    expect(GENERATOR_KINDS).toEqual(SERVER_GENERATORS);
  });
});
