import { describe, expect, it } from "vitest";
import { createArtifact } from "../../engine";
import { IDIOMATIC_CORPUS } from "../../sandbox/javascript/corpus";
import { createTddGuard, createTestGuard } from "./test-guard";

function artifact(id: string, content: string) {
  return createArtifact({ id, content, version: 1, parentId: null });
}

function withBug(content: string, [from, to]: readonly [string, string]): string {
  if (!content.includes(from)) throw new Error(`the bug's text ${JSON.stringify(from)} is not in the artifact`);
  return content.replace(from, to);
}

/**
 * Issue 15 item 4: ordinary JavaScript and TypeScript in the styles people and models write
 * (CommonJS, ES modules, global; jest, vitest, node:test, node's assert) passes the real test
 * guard in the real sandbox, and the same artifact with a bug fails, naming the failing test.
 */
describe("the test guard accepts idiomatic JavaScript and TypeScript", () => {
  it("has a corpus of at least 30 cases", () => {
    expect(IDIOMATIC_CORPUS.length).toBeGreaterThanOrEqual(30);
  });

  for (const corpusCase of IDIOMATIC_CORPUS) {
    describe(corpusCase.name, () => {
      it("passes as written (test guard, tests given statically)", async () => {
        const guard = createTestGuard(corpusCase.tests, { language: corpusCase.language });
        const result = await guard.validate(artifact("a", corpusCase.artifact), {});
        // The feedback counts the tests and names each one, so it must start with the corpus case's count.
        expect(result.feedback).toMatch(new RegExp(`^${corpusCase.count} tests? passed: `));
        expect(result.feedback.split(": ").slice(1).join(": ").split(", ").length).toBeGreaterThanOrEqual(corpusCase.count);
        expect(result.passed).toBe(true);
      });

      it("fails with a bug, naming the failing test (tdd guard, tests as the dependency)", async () => {
        const guard = createTddGuard({ language: corpusCase.language });
        const result = await guard.validate(artifact("a", withBug(corpusCase.artifact, corpusCase.bug)), { test: artifact("t", corpusCase.tests) });
        expect(result.passed).toBe(false);
        expect(result.feedback).toContain(`- ${corpusCase.failing}: `);
      });
    });
  }
});
