/** The examples of 000's percept-sequence tables, through guard objects as a workflow builds them. */
import { describe, expect, it } from "vitest";
import { createArtifact, executeWorkflow, always, requiresGuards, type Artifact } from "../engine";
import { InMemoryArtifactDag } from "../engine/testing/in-memory-artifact-dag";
import { ScriptedGenerator } from "../engine/testing/scripted-generator";
import { createGuard } from "./registry";

const artifact = (content: string): Artifact => createArtifact({ id: `a-${content.length}`, content, version: 1, parentId: null });

const LRU_TESTS = `
def test_put_and_get():
    cache = LRUCache(2)
    cache.put(1, "one")
    assert cache.get(1) == "one"

def test_get_missing():
    assert LRUCache(1).get(42) is None
`;
const LRU_WITHOUT_GET = `
class LRUCache:
    def __init__(self, capacity):
        self.capacity = capacity
        self.items = {}

    def put(self, key, value):
        self.items[key] = value
`;
const LRU_WITH_GET = `${LRU_WITHOUT_GET}
    def get(self, key):
        return self.items.get(key)
`;

const PRIME_TESTS = `
def test_digit_sum_is_prime():
    total = digit_sum(39)
    assert is_prime(total), f"Sum is {total}, not prime"
`;
const PRIME_VALIDATOR = `
def digit_sum(n):
    return sum(int(d) for d in str(n))

def is_prime(n):
    return n > 1 and all(n % k for k in range(2, int(n ** 0.5) + 1))
`;

describe("000's examples through the guard library", () => {
  it("table 2/4: the LRU cache without get fails its test with a message naming the missing method", async () => {
    const guard = createGuard({ kind: "tdd" }, { language: "python" });
    const result = await guard.validate(artifact(LRU_WITHOUT_GET), { test: artifact(LRU_TESTS) });
    expect(result).toMatchObject({ passed: false, fatal: false });
    expect(result.feedback).toContain("2 of 2 tests failed");
    expect(result.feedback).toMatch(/test_put_and_get: AttributeError: 'LRUCache' object has no attribute 'get'/);
    expect((await guard.validate(artifact(LRU_WITH_GET), { test: artifact(LRU_TESTS) })).passed).toBe(true);
  });

  it("table 3: the prime validator's failure message reaches the feedback", async () => {
    const guard = createGuard({ kind: "test", test: PRIME_TESTS }, { language: "python" });
    const result = await guard.validate(artifact(PRIME_VALIDATOR), {});
    expect(result.passed).toBe(false);
    expect(result.feedback).toContain("test_digit_sum_is_prime: Sum is 12, not prime");
  });

  it("table 3.5: import os; os.system(...) is fatal with the construct and line", async () => {
    const guard = createGuard({ kind: "security" }, { language: "python" });
    const result = await guard.validate(artifact('import os\nos.system("ls")\n'), {});
    expect(result).toMatchObject({ passed: false, fatal: true, feedback: "Security: os.system forbidden (line 2)" });
  });

  it("table 4 end to end: tests first, then an implementation the TDD guard runs them against", async () => {
    const testWriter = new ScriptedGenerator([LRU_TESTS]);
    const implementer = new ScriptedGenerator([LRU_WITHOUT_GET, LRU_WITH_GET]);
    const result = await executeWorkflow({
      specification: "Implement an LRU cache",
      dag: new InMemoryArtifactDag(),
      steps: [
        { name: "write_tests", guardId: "g_test", guardArtifactDeps: [], actionPair: { precondition: always, generator: testWriter, guard: createGuard({ kind: "syntax" }, { language: "python" }) } },
        {
          name: "implement",
          guardId: "g_impl",
          guardArtifactDeps: ["g_test"],
          actionPair: {
            precondition: requiresGuards(["g_test"]),
            generator: implementer,
            guard: createGuard({ kind: "all_of", guards: [{ kind: "security" }, { kind: "tdd" }] }, { language: "python" }),
          },
        },
      ],
    });
    expect(result.status).toBe("success");
    expect(implementer.calls).toBe(2);
    expect(implementer.prompts[1]).toContain("no attribute 'get'");
  });
});
