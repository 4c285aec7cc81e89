/**
 * The five percept-sequence tables of 000 as cassettes, with Python artifacts modelled on its
 * examples, and the guard specs that judge them. Real guards run these (sandboxed python3), so
 * each verdict in a replayed run comes from the code, not from a script.
 */
import type { Cassette } from "../cassette";

export const LRU_TESTS = `
def test_put():
    cache = LRUCache(2)
    cache.put(1, "one")
    assert cache.capacity == 2

def test_get():
    cache = LRUCache(2)
    cache.put(1, "one")
    assert cache.get(1) == "one"
    assert cache.get(2) is None
`;

export const LRU_WITHOUT_GET = `
class LRUCache:
    def __init__(self, capacity):
        self.capacity = capacity
        self.items = {}

    def put(self, key, value):
        self.items[key] = value
`;

export const LRU_WITH_GET = `${LRU_WITHOUT_GET}
    def get(self, key):
        return self.items.get(key)
`;

/** 000 table 3's validator: the digit sum of 39 must be prime, and 12 is not. */
export const PRIME_TESTS = `
def test_digit_sum_is_prime():
    total = digit_sum(39)
    assert is_prime(total), f"Sum is {total}, not prime"
`;

/** A validator whose digit sum is off by `offset`: 12, 14 and 10 are all not prime. */
export function primeValidator(offset: number): string {
  const adjust = offset === 0 ? "" : offset > 0 ? ` + ${offset}` : ` - ${-offset}`;
  return `
def digit_sum(n):
    return sum(int(d) for d in str(n))${adjust}

def is_prime(n):
    return n > 1 and all(n % k for k in range(2, int(n ** 0.5) + 1))
`;
}

export const OS_SYSTEM = "import os; os.system('rm -rf /')\n";

export const CASSETTES = {
  happyPath: { steps: { implement: [LRU_WITH_GET] } },
  refinement: { steps: { implement: [LRU_WITHOUT_GET, { content: LRU_WITH_GET, delay_ms: 250 }] } },
  exhaustion: { steps: { validate: [primeValidator(0), primeValidator(2), primeValidator(-2)] } },
  // The second attempt must never be asked for: ⊥_fatal escalates without retrying.
  fatal: { steps: { execute: [OS_SYSTEM, "print('never generated')\n"] } },
  tdd: { steps: { write_tests: [LRU_TESTS], implement: [LRU_WITHOUT_GET, LRU_WITH_GET] } },
} satisfies Record<string, Cassette>;
