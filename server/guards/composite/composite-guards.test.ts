import { describe, expect, it } from "vitest";
import { createArtifact, failed, fatal, passed, type GuardResult } from "../../engine";
import { guardFrom } from "../../engine/testing/scripted-guard";
import { createAllOfGuard, createAnyOfGuard } from "./composite-guards";

const artifact = createArtifact({ id: "a", content: "x", version: 1, parentId: null });
const fixed = (result: GuardResult) => guardFrom(() => result);

describe("all_of", () => {
  it("passes when every member passes, in order", async () => {
    const members = [fixed(passed()), fixed(passed("3 tests passed"))];
    expect(await createAllOfGuard(members).validate(artifact, {})).toEqual(passed("3 tests passed"));
    expect(members.map((m) => m.calls)).toEqual([1, 1]);
  });

  it("stops at the first failure and does not run later members", async () => {
    const members = [fixed(passed()), fixed(failed("Missing get method")), fixed(fatal("never reached"))];
    const result = await createAllOfGuard(members).validate(artifact, {});
    expect(result).toEqual({ passed: false, fatal: false, feedback: "Guard 2 of 3: Missing get method" });
    expect(members[2]?.calls).toBe(0);
  });

  it("is fatal when the failing member is fatal", async () => {
    const result = await createAllOfGuard([fixed(fatal("Security: os.system forbidden (line 1)")), fixed(passed())]).validate(artifact, {});
    expect(result).toMatchObject({ passed: false, fatal: true, feedback: "Guard 1 of 2: Security: os.system forbidden (line 1)" });
  });

  it("hands every member the same dependencies", async () => {
    const seen: string[][] = [];
    const spy = guardFrom((_a, deps) => (seen.push(Object.keys(deps)), passed()));
    await createAllOfGuard([spy, spy]).validate(artifact, { test: artifact });
    expect(seen).toEqual([["test"], ["test"]]);
  });
});

describe("any_of", () => {
  it("passes at the first passing member and skips the rest", async () => {
    const members = [fixed(failed("no")), fixed(passed("yes")), fixed(failed("unused"))];
    expect(await createAnyOfGuard(members).validate(artifact, {})).toEqual(passed("yes"));
    expect(members[2]?.calls).toBe(0);
  });

  it("fails with every member's feedback when none passes", async () => {
    const result = await createAnyOfGuard([fixed(failed("not JSON")), fixed(failed("not YAML"))]).validate(artifact, {});
    expect(result).toEqual({ passed: false, fatal: false, feedback: "No alternative passed:\n- option 1: not JSON\n- option 2: not YAML" });
  });

  it("never hides a fatal finding when nothing passes", async () => {
    const result = await createAnyOfGuard([fixed(failed("no")), fixed(fatal("Security: eval forbidden (line 2)"))]).validate(artifact, {});
    expect(result.fatal).toBe(true);
    expect(result.feedback).toContain("Security: eval forbidden (line 2)");
  });
});
