import { describe, expect, it } from "vitest";
import { InMemoryArtifactDag } from "../testing/in-memory-artifact-dag";
import { composeContext, refineContext, type Context } from "./context";
import { createPromptTemplate, DEFAULT_FEEDBACK_WRAPPER, renderBasicPrompt, renderPrompt } from "./prompt-template";

function contextWith(constraints: string, history: [artifact: string, feedback: string][] = []): Context {
  let context = composeContext({ repository: new InMemoryArtifactDag(), constraints }, "Implement LRU Cache");
  for (const [artifact, feedback] of history) context = refineContext(context, artifact, feedback);
  return context;
}

const template = createPromptTemplate({ role: "You are a Python engineer.", constraints: "Python 3.12 only", task: "Write the class." });

describe("createPromptTemplate", () => {
  it("uses 001's default feedback wrapper when none is given", () => {
    expect(DEFAULT_FEEDBACK_WRAPPER).toBe("GUARD REJECTION:\n{feedback}\nInstruction: Address the rejection above.");
    expect(template.feedbackWrapper).toBe(DEFAULT_FEEDBACK_WRAPPER);
    expect(Object.isFrozen(template)).toBe(true);
  });

  it("keeps a custom wrapper", () => {
    expect(createPromptTemplate({ role: "r", constraints: "c", task: "t", feedbackWrapper: "X {feedback}" }).feedbackWrapper).toBe("X {feedback}");
  });
});

describe("renderPrompt (001 PromptTemplate.render)", () => {
  it("renders only ROLE, CONSTRAINTS and TASK without ambient constraints or history", () => {
    expect(renderPrompt(template, contextWith(""))).toBe(
      "# ROLE\nYou are a Python engineer.\n\n# CONSTRAINTS\nPython 3.12 only\n\n# TASK\nWrite the class.",
    );
  });

  it("adds # CONTEXT between CONSTRAINTS and TASK when the ambient environment has constraints", () => {
    expect(renderPrompt(template, contextWith("No network access."))).toBe(
      "# ROLE\nYou are a Python engineer.\n\n# CONSTRAINTS\nPython 3.12 only\n\n# CONTEXT\nNo network access.\n\n# TASK\nWrite the class.",
    );
  });

  it("renders one wrapped block per failed attempt, numbered from 1, in order", () => {
    const context = contextWith("No network access.", [
      ["class A: pass", "Missing get method"],
      ["class A:\n  def get(self): ...", "get returns None"],
    ]);
    expect(renderPrompt(template, context)).toBe(
      [
        "# ROLE\nYou are a Python engineer.",
        "# CONSTRAINTS\nPython 3.12 only",
        "# CONTEXT\nNo network access.",
        "# HISTORY (Context Refinement)",
        "--- Attempt 1 ---\nGUARD REJECTION:\nMissing get method\nInstruction: Address the rejection above.",
        "--- Attempt 2 ---\nGUARD REJECTION:\nget returns None\nInstruction: Address the rejection above.",
        "# TASK\nWrite the class.",
      ].join("\n\n"),
    );
  });

  it("renders history without # CONTEXT when the ambient constraints are empty", () => {
    const rendered = renderPrompt(template, contextWith("", [["x", "bad"]]));
    expect(rendered).toBe(
      "# ROLE\nYou are a Python engineer.\n\n# CONSTRAINTS\nPython 3.12 only\n\n# HISTORY (Context Refinement)\n\n" +
        "--- Attempt 1 ---\nGUARD REJECTION:\nbad\nInstruction: Address the rejection above.\n\n# TASK\nWrite the class.",
    );
    expect(rendered).not.toContain("# CONTEXT");
  });

  it("leaves out a section whose content is empty or blank, never an empty header", () => {
    const bare = createPromptTemplate({ role: "", constraints: "  \n", task: "Write the class." });
    expect(renderPrompt(bare, contextWith(""))).toBe("# TASK\nWrite the class.");
    expect(renderPrompt(bare, contextWith("   "))).toBe("# TASK\nWrite the class.");
    const rendered = renderPrompt(bare, contextWith("No network access.", [["x", "bad"]]));
    expect(rendered).toBe("# CONTEXT\nNo network access.\n\n# HISTORY (Context Refinement)\n\n--- Attempt 1 ---\nGUARD REJECTION:\nbad\nInstruction: Address the rejection above.\n\n# TASK\nWrite the class.");
    expect(rendered).not.toContain("# ROLE");
    expect(rendered).not.toContain("# CONSTRAINTS");
  });

  it("does not put the failed artifact's content into the templated prompt (001 renders feedback only)", () => {
    const rendered = renderPrompt(template, contextWith("", [["SECRET_ARTIFACT_BODY", "bad"]]));
    expect(rendered).not.toContain("SECRET_ARTIFACT_BODY");
  });

  it("replaces every {feedback} occurrence of a custom wrapper", () => {
    const custom = createPromptTemplate({ role: "R", constraints: "C", task: "T", feedbackWrapper: "<{feedback}> again: {feedback}!" });
    expect(renderPrompt(custom, contextWith("", [["a", "too slow"], ["b", "wrong"]]))).toBe(
      "# ROLE\nR\n\n# CONSTRAINTS\nC\n\n# HISTORY (Context Refinement)\n\n--- Attempt 1 ---\n<too slow> again: too slow!\n\n" +
        "--- Attempt 2 ---\n<wrong> again: wrong!\n\n# TASK\nT",
    );
  });

  it("inserts feedback literally, even when it contains $-patterns or braces", () => {
    const custom = createPromptTemplate({ role: "R", constraints: "C", task: "T", feedbackWrapper: "F: {feedback}" });
    const rendered = renderPrompt(custom, contextWith("", [["a", "expected $& and $1 and {x}"]]));
    expect(rendered).toContain("--- Attempt 1 ---\nF: expected $& and $1 and {x}");
  });

  it("keeps a wrapper without a {feedback} marker as is", () => {
    const custom = createPromptTemplate({ role: "R", constraints: "C", task: "T", feedbackWrapper: "Try again." });
    expect(renderPrompt(custom, contextWith("", [["a", "bad"]]))).toContain("--- Attempt 1 ---\nTry again.\n\n# TASK\nT");
  });
});

describe("renderBasicPrompt (001 _build_basic_prompt)", () => {
  it("is just the specification on a fresh context", () => {
    expect(renderBasicPrompt(contextWith("ignored constraints"))).toBe("Implement LRU Cache");
  });

  it("adds the previous attempt and the numbered feedback history", () => {
    const context = contextWith("", [
      ["class A: pass", "Missing get method"],
      ["class A: get", "get returns None"],
    ]);
    expect(renderBasicPrompt(context)).toBe(
      "Implement LRU Cache\n\nPrevious attempt:\nclass A: get\n\nFeedback history:\nAttempt 1 feedback: Missing get method\nAttempt 2 feedback: get returns None",
    );
  });

  it("omits an empty current artifact, as 001's truthiness check does", () => {
    const context = refineContext(contextWith(""), "", "empty output");
    expect(renderBasicPrompt(context)).toBe("Implement LRU Cache\n\nFeedback history:\nAttempt 1 feedback: empty output");
  });
});
