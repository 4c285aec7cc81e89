import { describe, expect, it } from "vitest";
import { MAX_WORKFLOW_NAME_LENGTH, workflowNameProblem, workflowNameSchema } from "./workflow-name";

describe("the workflow name rule", () => {
  it.each(["tdd-lru-cache", "Parser", "a", "v1.2 release_candidate", "from-example-1764111111111", "x".repeat(MAX_WORKFLOW_NAME_LENGTH)])("accepts %j", (name) => {
    expect(workflowNameProblem(name)).toBeNull();
    expect(workflowNameSchema.safeParse(name).success).toBe(true);
  });

  it.each([
    ["", "must not be empty"],
    ["x".repeat(300), "must be at most 100 characters (it has 300)"],
    ["x".repeat(MAX_WORKFLOW_NAME_LENGTH + 1), "must be at most 100 characters (it has 101)"],
    ["a/../../b", "may hold only letters A–Z, digits, spaces, '-', '_' and '.'"],
    ["a\\b", "may hold only letters A–Z, digits, spaces, '-', '_' and '.'"],
    ["..", "must start and end with a letter or a digit"],
    ["a..b", "must not contain '..'"],
    [" padded", "must start and end with a letter or a digit"],
    ["padded ", "must start and end with a letter or a digit"],
    ["-rf", "must start and end with a letter or a digit"],
    [".hidden", "must start and end with a letter or a digit"],
    ["line\nbreak", "may hold only letters A–Z, digits, spaces, '-', '_' and '.'"],
    ["nul\u0000byte", "may hold only letters A–Z, digits, spaces, '-', '_' and '.'"],
    ["<script>", "may hold only letters A–Z, digits, spaces, '-', '_' and '.'"],
    ["caf\u00e9", "may hold only letters A–Z, digits, spaces, '-', '_' and '.'"],
    ["pay\u0440al", "may hold only letters A–Z, digits, spaces, '-', '_' and '.'"],
    ["a%2F..%2Fb", "may hold only letters A–Z, digits, spaces, '-', '_' and '.'"],
  ])("refuses %j: %s", (name, problem) => {
    expect(workflowNameProblem(name)).toBe(problem);
    expect(workflowNameSchema.safeParse(name).error?.issues[0]?.message).toBe(problem);
  });
});
