import { describe, expect, it } from "vitest";
import { validateWorkflowDocument } from "@/server/workflows/definition";
import { exampleAsNewWorkflow, listExamples } from "./example-as-new-workflow";

describe("new workflow from a bundled example", () => {
  it("lists the bundled examples with their descriptions", () => {
    const examples = listExamples();
    expect(examples.map((example) => example.name)).toContain("tdd-lru-cache");
    expect(examples.find((example) => example.name === "tdd-lru-cache")?.description).toMatch(/^Tests first/);
  });

  it("copies the example under the new name, keeping the rest of its definition and its comments", () => {
    const text = exampleAsNewWorkflow("tdd-lru-cache", "my-cache");
    expect(text).toContain("The tests come first (g_test)");
    const copy = validateWorkflowDocument(text);
    const original = validateWorkflowDocument(exampleAsNewWorkflow("tdd-lru-cache", "tdd-lru-cache"));
    expect(copy.ok && original.ok).toBe(true);
    if (copy.ok && original.ok) expect(copy.definition).toEqual({ ...original.definition, name: "my-cache" });
  });

  it("names the examples there are when the one asked for does not exist", () => {
    expect(() => exampleAsNewWorkflow("tdd-lru", "x")).toThrow(/^example: no bundled example is named "tdd-lru" \(examples: .*tdd-lru-cache/);
  });
});
