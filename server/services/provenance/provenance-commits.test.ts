import { describe, expect, it } from "vitest";
import { artifactPath, planProvenanceCommits, type CommitArtifact } from "./provenance-commits";

const at = (second: number) => new Date(Date.UTC(2026, 10, 24, 12, 0, second));
const artifact = (id: string, stepName: string, attempt: number, parentId: string | null, passed: boolean, second: number, feedback = ""): CommitArtifact => ({
  id,
  stepName,
  stepKind: "action_pair",
  guardId: stepName === "write_tests" ? "g_test" : "g_impl",
  attempt,
  parentId,
  passed,
  fatal: false,
  feedback,
  contentHash: "ab".repeat(32),
  createdAt: at(second),
  content: `${stepName} ${attempt}\n`,
  language: "python",
});
const run = { id: "run-1", workflow: "tdd", version: 2, specification: "An LRU cache", createdAt: at(0) };

describe("provenance as git commits", () => {
  it("starts with the specification, then one commit per attempt in time order with its verdict, feedback and DAG trailers", () => {
    const commits = planProvenanceCommits(run, {
      // Given out of order: the plan orders by time.
      artifacts: [artifact("i2", "implement", 2, "i1", true, 3), artifact("t1", "write_tests", 1, null, true, 1), artifact("i1", "implement", 1, null, false, 2, "test_get failed: assert None == 'one'")],
      dependencies: [{ artifactId: "i2", name: "test", dependencyId: "t1" }],
      escalations: [],
    });
    expect(commits.map((commit) => commit.message.split("\n")[0])).toEqual(["run run-1: tdd v2", "write_tests attempt 1: passed", "implement attempt 1: failed", "implement attempt 2: passed"]);
    expect(commits[0]?.files).toEqual({ "SPECIFICATION.md": "# Run run-1\n\nWorkflow: tdd v2\n\nAn LRU cache\n" });
    expect(commits[2]?.message).toBe(
      ["implement attempt 1: failed", "", "test_get failed: assert None == 'one'", "", "Artifact: i1", "Step: implement", "Attempt: 1", "Verdict: failed", "Guard: g_impl", `Content-Hash: sha256:${"ab".repeat(32)}`].join("\n"),
    );
    expect(commits[3]?.message).toMatch(/\nRefines: i1\nDepends-On: test=t1$/);
    expect(commits[3]?.files).toEqual({ "implement.py": "implement 2\n" });
    expect(commits.map((commit) => commit.at.getTime())).toEqual([0, 1, 2, 3].map((second) => at(second).getTime()));
  });

  it("records a decided escalation as a commit of its own, after the attempt it decided on", () => {
    const fatal = { ...artifact("s1", "script", 1, null, false, 1, "os.system is forbidden"), fatal: true };
    const base = { id: "e1", artifactId: "s1", stepName: "script", feedback: "os.system is forbidden", createdAt: at(1) };
    const commits = planProvenanceCommits(run, {
      artifacts: [fatal],
      dependencies: [],
      escalations: [{ ...base, status: "approved", decidedBy: "ada@example.com", decidedAt: at(1), comment: "fine in this sandbox" }, { ...base, id: "e2", status: "pending", decidedBy: null, decidedAt: null, comment: null }],
    });
    expect(commits.map((commit) => commit.message.split("\n")[0])).toEqual(["run run-1: tdd v2", "script attempt 1: fatal", "decision on script: approved"]);
    expect(commits[2]).toMatchObject({ files: {}, author: "ada@example.com", message: expect.stringContaining("fine in this sandbox\n\nEscalation: e1\nArtifact: s1\nDecided-By: ada@example.com") });
  });

  it("names each step's file by its language, and keeps odd step names inside the repository", () => {
    expect([artifactPath("implement", "python"), artifactPath("ui", "typescript"), artifactPath("answer", null), artifactPath("../../etc/passwd", "js")]).toEqual(["implement.py", "ui.ts", "answer.txt", "__.._etc_passwd.js"]);
  });
});
