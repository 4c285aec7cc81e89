import type { CorpusCase } from "./corpus-case";

/** TypeScript artifacts and tests: types, interfaces, import type, export type, enums, generics. */
export const TYPESCRIPT_CASES: readonly CorpusCase[] = [
  {
    name: "generic stack class, import type, vitest",
    language: "typescript",
    artifact: `export interface Collection<T> {
  readonly size: number;
  toArray(): T[];
}

export type Comparator<T> = (a: T, b: T) => number;

export class Stack<T> implements Collection<T> {
  private items: T[] = [];

  push(...items: T[]): this {
    this.items.push(...items);
    return this;
  }

  pop(): T | undefined {
    return this.items.pop();
  }

  peek(): T | undefined {
    return this.items[this.items.length - 1];
  }

  get size(): number {
    return this.items.length;
  }

  toArray(): T[] {
    return [...this.items].reverse();
  }

  max(compare: Comparator<T>): T | undefined {
    return this.items.reduce<T | undefined>((best, item) => (best === undefined || compare(item, best) > 0 ? item : best), undefined);
  }
}
`,
    tests: `import { describe, expect, it } from 'vitest';
import { Stack } from './stack';
import type { Collection, Comparator } from './stack';

describe('Stack', () => {
  it('is last in, first out', () => {
    const stack = new Stack<number>().push(1, 2, 3);
    expect(stack.pop()).toBe(3);
    expect(stack.peek()).toBe(2);
    expect(stack.size).toBe(2);
  });

  it('lists items from the top', () => {
    const stack: Collection<string> = new Stack<string>().push('a', 'b');
    expect(stack.toArray()).toEqual(['b', 'a']);
  });

  it('finds the maximum with a comparator', () => {
    const byLength: Comparator<string> = (a, b) => a.length - b.length;
    expect(new Stack<string>().push('aa', 'a', 'aaa', 'b').max(byLength)).toBe('aaa');
    expect(new Stack<string>().max(byLength)).toBeUndefined();
  });
});
`,
    count: 3,
    bug: ["    return [...this.items].reverse();", "    return [...this.items];"],
    failing: "Stack > lists items from the top",
  },
  {
    name: "result type and parser, export type and interfaces, toMatchObject and expect.any",
    language: "typescript",
    artifact: `export type Ok<T> = { ok: true; value: T };
export type Err = { ok: false; error: string; line: number };
export type Result<T> = Ok<T> | Err;

export interface Setting {
  key: string;
  value: string | number | boolean;
}

function parseValue(raw: string): Setting['value'] {
  if (raw === 'true' || raw === 'false') return raw === 'true';
  if (/^-?\\d+(\\.\\d+)?$/.test(raw)) return Number(raw);
  return raw.replace(/^"(.*)"$/, '$1');
}

export function parseConfig(text: string): Result<Setting[]> {
  const settings: Setting[] = [];
  const lines = text.split('\\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) return { ok: false, error: 'expected key = value', line: i + 1 };
    settings.push({ key: line.slice(0, eq).trim(), value: parseValue(line.slice(eq + 1).trim()) });
  }
  return { ok: true, value: settings };
}
`,
    tests: `import { parseConfig, type Result, type Setting } from './config';

describe('parseConfig', () => {
  it('parses typed values and skips comments', () => {
    const result: Result<Setting[]> = parseConfig('# comment\\nname = "app"\\nport = 8080\\ndebug = true\\n');
    expect(result).toMatchObject({ ok: true });
    if (!result.ok) throw new Error('expected ok');
    expect(result.value).toEqual([
      { key: 'name', value: 'app' },
      { key: 'port', value: 8080 },
      { key: 'debug', value: true },
    ]);
  });

  it('reports the line of a malformed entry', () => {
    expect(parseConfig('a = 1\\n\\noops')).toEqual({ ok: false, error: expect.any(String), line: 3 });
  });

  it('keeps negative and decimal numbers', () => {
    const result = parseConfig('x = -1.5');
    expect(result.ok && result.value[0]).toEqual({ key: 'x', value: expect.closeTo(-1.5) });
  });
});
`,
    count: 3,
    bug: ["return { ok: false, error: 'expected key = value', line: i + 1 };", "return { ok: false, error: 'expected key = value', line: i };"],
    failing: "parseConfig > reports the line of a malformed entry",
  },
  {
    name: "token bucket rate limiter, Date.now on the virtual clock, jest globals",
    language: "typescript",
    artifact: `export interface RateLimiterOptions {
  capacity: number;
  refillPerSecond: number;
  now?: () => number;
}

export class TokenBucket {
  private tokens: number;
  private last: number;
  private readonly now: () => number;

  constructor(private readonly options: RateLimiterOptions) {
    this.now = options.now ?? (() => Date.now());
    this.tokens = options.capacity;
    this.last = this.now();
  }

  private refill(): void {
    const current = this.now();
    const elapsed = (current - this.last) / 1000;
    this.tokens = Math.min(this.options.capacity, this.tokens + elapsed * this.options.refillPerSecond);
    this.last = current;
  }

  tryRemove(count = 1): boolean {
    this.refill();
    if (this.tokens < count) return false;
    this.tokens -= count;
    return true;
  }
}
`,
    tests: `import { TokenBucket } from './rate-limiter';

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('TokenBucket', () => {
  test('allows a burst up to the capacity', () => {
    const bucket = new TokenBucket({ capacity: 3, refillPerSecond: 1 });
    expect([1, 2, 3, 4].map(() => bucket.tryRemove())).toEqual([true, true, true, false]);
  });

  test('refills over time', async () => {
    const bucket = new TokenBucket({ capacity: 2, refillPerSecond: 2 });
    bucket.tryRemove(2);
    expect(bucket.tryRemove()).toBe(false);
    await wait(600);
    expect(bucket.tryRemove()).toBe(true);
  });

  test('never exceeds the capacity', async () => {
    let clock = 0;
    const bucket = new TokenBucket({ capacity: 2, refillPerSecond: 10, now: () => clock });
    clock = 60_000;
    expect(bucket.tryRemove(2)).toBe(true);
    expect(bucket.tryRemove()).toBe(false);
  });
});
`,
    count: 3,
    bug: ["this.tokens = Math.min(this.options.capacity, this.tokens + elapsed * this.options.refillPerSecond);", "this.tokens = this.tokens + elapsed * this.options.refillPerSecond;"],
    failing: "TokenBucket > never exceeds the capacity",
  },
  {
    name: "enum and pure function, test.each with a template table",
    language: "typescript",
    artifact: `export enum Op {
  Add = '+',
  Sub = '-',
  Mul = '*',
  Div = '/',
}

export function apply(op: Op, a: number, b: number): number {
  switch (op) {
    case Op.Add:
      return a + b;
    case Op.Sub:
      return a - b;
    case Op.Mul:
      return a * b;
    case Op.Div:
      if (b === 0) throw new Error('division by zero');
      return a / b;
  }
}
`,
    tests: `import { Op, apply } from './ops';

describe('apply', () => {
  test.each\`
    op        | a     | b    | expected
    \${Op.Add} | \${1}  | \${2} | \${3}
    \${Op.Sub} | \${5}  | \${7} | \${-2}
    \${Op.Mul} | \${3}  | \${4} | \${12}
    \${Op.Div} | \${10} | \${4} | \${2.5}
  \`('$a $op $b = $expected', ({ op, a, b, expected }) => {
    expect(apply(op, a, b)).toBe(expected);
  });

  test('refuses to divide by zero', () => {
    expect(() => apply(Op.Div, 1, 0)).toThrow(/division by zero/);
  });
});
`,
    count: 5,
    bug: ["      return a - b;", "      return b - a;"],
    failing: 'apply > 5 "-" 7 = -2',
  },
  {
    name: "service with an injected fetcher, vi.fn with mockResolvedValue",
    language: "typescript",
    artifact: `export interface User {
  id: number;
  name: string;
}

export type Fetcher = (url: string) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

export class UserService {
  private cache = new Map<number, User>();

  constructor(private readonly fetcher: Fetcher, private readonly baseUrl = 'https://api.example.com') {}

  async getUser(id: number): Promise<User> {
    const cached = this.cache.get(id);
    if (cached) return cached;
    const response = await this.fetcher(this.baseUrl + '/users/' + id);
    if (!response.ok) throw new Error('request failed with status ' + response.status);
    const user = (await response.json()) as User;
    this.cache.set(id, user);
    return user;
  }
}
`,
    tests: `import { describe, it, expect, vi, beforeEach } from 'vitest';
import { UserService, type Fetcher } from './user-service';

describe('UserService', () => {
  let fetcher: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    fetcher = vi.fn();
  });

  it('fetches a user once and caches it', async () => {
    fetcher.mockResolvedValue({ ok: true, status: 200, json: async () => ({ id: 1, name: 'Ada' }) });
    const service = new UserService(fetcher as unknown as Fetcher);
    await expect(service.getUser(1)).resolves.toEqual({ id: 1, name: 'Ada' });
    await service.getUser(1);
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(fetcher).toHaveBeenCalledWith('https://api.example.com/users/1');
  });

  it('fails on an error status', async () => {
    fetcher.mockResolvedValueOnce({ ok: false, status: 404, json: async () => ({}) });
    const service = new UserService(fetcher as unknown as Fetcher);
    await expect(service.getUser(2)).rejects.toThrow('status 404');
  });
});
`,
    count: 2,
    bug: ["    if (cached) return cached;\n", ""],
    failing: "UserService > fetches a user once and caches it",
  },
  {
    name: "validator with export = and import x = require()",
    language: "typescript",
    artifact: `interface Rule {
  test(value: string): boolean;
  message: string;
}

const rules: Rule[] = [
  { test: (v) => v.length >= 8, message: 'at least 8 characters' },
  { test: (v) => /[A-Z]/.test(v), message: 'an uppercase letter' },
  { test: (v) => /[0-9]/.test(v), message: 'a digit' },
];

function validatePassword(value: string): string[] {
  return rules.filter((rule) => !rule.test(value)).map((rule) => rule.message);
}

export = validatePassword;
`,
    tests: `import validatePassword = require('./validate-password');

test('accepts a strong password', () => {
  expect(validatePassword('Sup3rSecret')).toEqual([]);
});

test('lists every missing rule', () => {
  expect(validatePassword('short')).toEqual(['at least 8 characters', 'an uppercase letter', 'a digit']);
});
`,
    count: 2,
    bug: ["/[0-9]/.test(v)", "/[0-9]/.test(v) || true"],
    failing: "lists every missing rule",
  },
  {
    name: "class with private fields and static factory, node:test with async beforeEach and t.test",
    language: "typescript",
    artifact: `export class Money {
  readonly #cents: number;
  readonly currency: string;

  private constructor(cents: number, currency: string) {
    this.#cents = cents;
    this.currency = currency;
  }

  static of(amount: number, currency = 'EUR'): Money {
    return new Money(Math.round(amount * 100), currency);
  }

  get amount(): number {
    return this.#cents / 100;
  }

  add(other: Money): Money {
    if (other.currency !== this.currency) throw new TypeError('currency mismatch');
    return new Money(this.#cents + other.#cents, this.currency);
  }

  split(parts: number): Money[] {
    const base = Math.floor(this.#cents / parts);
    const remainder = this.#cents - base * parts;
    return Array.from({ length: parts }, (_, i) => new Money(base + (i < remainder ? 1 : 0), this.currency));
  }

  toString(): string {
    return this.amount.toFixed(2) + ' ' + this.currency;
  }
}
`,
    tests: `import { describe, it, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { Money } from './money';

describe('Money', () => {
  let ten: Money;

  beforeEach(async () => {
    await Promise.resolve();
    ten = Money.of(10);
  });

  it('adds amounts in the same currency', () => {
    assert.equal(ten.add(Money.of(0.1)).toString(), '10.10 EUR');
  });

  it('refuses to add different currencies', () => {
    assert.throws(() => ten.add(Money.of(1, 'USD')), TypeError);
  });

  it('splits without losing cents', async (t) => {
    await t.test('three ways', () => {
      const parts = ten.split(3).map((part) => part.amount);
      assert.deepEqual(parts, [3.34, 3.33, 3.33]);
    });
    await t.test('sum is preserved', () => {
      const total = ten.split(7).reduce((sum, part) => sum.add(part));
      assert.equal(total.amount, 10);
    });
  });
});
`,
    count: 5,
    bug: ["new Money(base + (i < remainder ? 1 : 0), this.currency)", "new Money(base, this.currency)"],
    failing: "Money > splits without losing cents > three ways",
  },
  {
    name: "binary search with a renamed export, assert/strict",
    language: "typescript",
    artifact: `function binarySearch<T>(sorted: readonly T[], target: T, compare: (a: T, b: T) => number = (a, b) => (a < b ? -1 : a > b ? 1 : 0)): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const order = compare(sorted[mid]!, target);
    if (order === 0) return mid;
    if (order < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

function insertionPoint(sorted: readonly number[], target: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export { binarySearch as search, insertionPoint };
`,
    tests: `import assert from 'node:assert/strict';
import { search, insertionPoint } from './search';

const primes = [2, 3, 5, 7, 11, 13, 17, 19, 23];

test('finds every element', () => {
  primes.forEach((p, i) => assert.equal(search(primes, p), i));
});

test('returns -1 for missing elements', () => {
  assert.equal(search(primes, 4), -1);
  assert.equal(search([], 1), -1);
});

test('insertion point keeps the order', () => {
  assert.equal(insertionPoint(primes, 1), 0);
  assert.equal(insertionPoint(primes, 12), 5);
  assert.equal(insertionPoint(primes, 100), primes.length);
});
`,
    count: 3,
    bug: ["  let hi = sorted.length - 1;\n  while (lo <= hi)", "  let hi = sorted.length - 2;\n  while (lo <= hi)"],
    failing: "finds every element",
  },
  {
    name: "schema validator with a custom error class, toThrow(Class), toHaveProperty",
    language: "typescript",
    artifact: `export class ValidationError extends Error {
  constructor(public readonly path: string, message: string) {
    super(path + ': ' + message);
    this.name = 'ValidationError';
  }
}

export type Schema =
  | { type: 'string'; minLength?: number }
  | { type: 'number'; min?: number }
  | { type: 'object'; properties: Record<string, Schema>; required?: string[] };

export function validate(value: unknown, schema: Schema, path = '$'): void {
  switch (schema.type) {
    case 'string':
      if (typeof value !== 'string') throw new ValidationError(path, 'expected a string');
      if (schema.minLength !== undefined && value.length < schema.minLength) throw new ValidationError(path, 'too short');
      return;
    case 'number':
      if (typeof value !== 'number' || Number.isNaN(value)) throw new ValidationError(path, 'expected a number');
      if (schema.min !== undefined && value < schema.min) throw new ValidationError(path, 'too small');
      return;
    case 'object': {
      if (typeof value !== 'object' || value === null) throw new ValidationError(path, 'expected an object');
      const record = value as Record<string, unknown>;
      for (const key of schema.required ?? []) if (!(key in record)) throw new ValidationError(path + '.' + key, 'is required');
      for (const [key, sub] of Object.entries(schema.properties)) if (key in record) validate(record[key], sub, path + '.' + key);
    }
  }
}
`,
    tests: `import { validate, ValidationError, type Schema } from './validate';

const user: Schema = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', minLength: 2 }, age: { type: 'number', min: 0 } },
};

describe('validate', () => {
  it('accepts a valid value', () => {
    expect(() => validate({ name: 'Ada', age: 36 }, user)).not.toThrow();
  });

  it('reports the path of a nested error', () => {
    let caught: unknown;
    try {
      validate({ name: 'Ada', age: -1 }, user);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect(caught).toHaveProperty('path', '$.age');
  });

  it('requires required keys', () => {
    expect(() => validate({}, user)).toThrow(ValidationError);
    expect(() => validate({}, user)).toThrow('$.name: is required');
  });
});
`,
    count: 3,
    bug: ["if (schema.min !== undefined && value < schema.min)", "if (schema.min !== undefined && value < schema.min - 1)"],
    failing: "validate > reports the path of a nested error",
  },
  {
    name: "global style in TypeScript: interfaces and functions, no export",
    language: "typescript",
    artifact: `interface Interval {
  start: number;
  end: number;
}

function mergeIntervals(intervals: Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  const merged: Interval[] = [];
  for (const current of sorted) {
    const last = merged[merged.length - 1];
    if (last && current.start <= last.end) last.end = Math.max(last.end, current.end);
    else merged.push({ ...current });
  }
  return merged;
}
`,
    tests: `test('merges overlapping intervals', () => {
  expect(mergeIntervals([{ start: 1, end: 3 }, { start: 2, end: 6 }, { start: 8, end: 10 }])).toEqual([
    { start: 1, end: 6 },
    { start: 8, end: 10 },
  ]);
});

test('merges touching intervals and keeps the input intact', () => {
  const input: Interval[] = [{ start: 5, end: 6 }, { start: 1, end: 5 }];
  expect(mergeIntervals(input)).toEqual([{ start: 1, end: 6 }]);
  expect(input[0]).toEqual({ start: 5, end: 6 });
});
`,
    count: 2,
    bug: ["current.start <= last.end", "current.start < last.end"],
    failing: "merges touching intervals and keeps the input intact",
  },
  {
    name: "async cache with TTL, expect.assertions and hasAssertions",
    language: "typescript",
    artifact: `export class TtlCache<V> {
  private entries = new Map<string, { value: V; expires: number }>();

  constructor(private readonly ttlMs: number) {}

  set(key: string, value: V): void {
    this.entries.set(key, { value, expires: Date.now() + this.ttlMs });
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (Date.now() >= entry.expires) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  async getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const value = await load();
    this.set(key, value);
    return value;
  }
}
`,
    tests: `import { TtlCache } from './ttl-cache';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('expires entries after the TTL', async () => {
  expect.assertions(2);
  const cache = new TtlCache<number>(1000);
  cache.set('a', 1);
  await sleep(500);
  expect(cache.get('a')).toBe(1);
  await sleep(600);
  expect(cache.get('a')).toBeUndefined();
});

test('loads once while fresh', async () => {
  expect.hasAssertions();
  const cache = new TtlCache<string>(1000);
  let loads = 0;
  const load = async () => { loads += 1; return 'value'; };
  await cache.getOrLoad('k', load);
  await cache.getOrLoad('k', load);
  expect(loads).toBe(1);
});
`,
    count: 2,
    bug: ["if (Date.now() >= entry.expires)", "if (Date.now() >= entry.expires + 1000)"],
    failing: "expires entries after the TTL",
  },
];
