import type { CorpusCase } from "./corpus-case";

/** ES module artifacts (export, export default, export { a as b }), tests that import them; mixed and global styles. */
export const ESM_CASES: readonly CorpusCase[] = [
  {
    name: "array utilities, named exports, vitest imports",
    language: "javascript",
    artifact: `export function chunk(array, size) {
  if (size < 1) throw new RangeError('size must be at least 1');
  const chunks = [];
  for (let i = 0; i < array.length; i += size) chunks.push(array.slice(i, i + size));
  return chunks;
}

export function flatten(array, depth = Infinity) {
  return depth > 0
    ? array.reduce((acc, item) => acc.concat(Array.isArray(item) ? flatten(item, depth - 1) : [item]), [])
    : array.slice();
}

export const unique = (array) => [...new Set(array)];

export function groupBy(array, keyOf) {
  return array.reduce((groups, item) => {
    const key = keyOf(item);
    (groups[key] ||= []).push(item);
    return groups;
  }, {});
}
`,
    tests: `import { describe, it, expect } from 'vitest';
import { chunk, flatten, unique, groupBy } from './array-utils.js';

describe('chunk', () => {
  it('splits into groups of the given size', () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });
  it('throws on a size below one', () => {
    expect(() => chunk([1], 0)).toThrowError(/at least 1/);
  });
});

describe('flatten', () => {
  it('flattens deeply by default', () => {
    expect(flatten([1, [2, [3, [4]]]])).toStrictEqual([1, 2, 3, 4]);
  });
  it('respects the depth', () => {
    expect(flatten([1, [2, [3, [4]]]], 1)).toEqual([1, 2, [3, [4]]]);
  });
});

describe('unique and groupBy', () => {
  it('removes duplicates keeping order', () => {
    expect(unique([3, 1, 3, 2, 1])).toEqual([3, 1, 2]);
  });
  it('groups by a key function', () => {
    const groups = groupBy(['apple', 'avocado', 'banana'], (word) => word[0]);
    expect(groups).toHaveProperty('a');
    expect(groups.a).toHaveLength(2);
    expect(groups).toMatchObject({ b: ['banana'] });
  });
});
`,
    count: 6,
    bug: ["for (let i = 0; i < array.length; i += size)", "for (let i = 0; i < array.length - 1; i += size)"],
    failing: "chunk > splits into groups of the given size",
  },
  {
    name: "matrix, export default class, node:test describe/it with assert.deepStrictEqual",
    language: "javascript",
    artifact: `export default class Matrix {
  constructor(rows) {
    if (!rows.length || rows.some((row) => row.length !== rows[0].length)) {
      throw new Error('rows must be non-empty and of equal length');
    }
    this.rows = rows.map((row) => [...row]);
  }

  static identity(n) {
    return new Matrix(Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0))));
  }

  get shape() {
    return [this.rows.length, this.rows[0].length];
  }

  multiply(other) {
    const [n, m] = this.shape;
    const [m2, p] = other.shape;
    if (m !== m2) throw new Error('shape mismatch');
    const out = Array.from({ length: n }, () => new Array(p).fill(0));
    for (let i = 0; i < n; i++)
      for (let j = 0; j < p; j++)
        for (let k = 0; k < m; k++) out[i][j] += this.rows[i][k] * other.rows[k][j];
    return new Matrix(out);
  }

  transpose() {
    const [n, m] = this.shape;
    return new Matrix(Array.from({ length: m }, (_, j) => Array.from({ length: n }, (_, i) => this.rows[i][j])));
  }
}
`,
    tests: `import { describe, it } from 'node:test';
import assert from 'node:assert';
import Matrix from './matrix.js';

describe('Matrix', () => {
  it('multiplies', () => {
    const a = new Matrix([[1, 2], [3, 4]]);
    const b = new Matrix([[5, 6], [7, 8]]);
    assert.deepStrictEqual(a.multiply(b).rows, [[19, 22], [43, 50]]);
  });

  it('has an identity', () => {
    const a = new Matrix([[2, 3], [4, 5]]);
    assert.deepStrictEqual(a.multiply(Matrix.identity(2)).rows, a.rows);
  });

  it('transposes', () => {
    assert.deepStrictEqual(new Matrix([[1, 2, 3]]).transpose().rows, [[1], [2], [3]]);
    assert.deepStrictEqual(new Matrix([[1, 2, 3]]).transpose().shape, [3, 1]);
  });

  it('rejects mismatched shapes', () => {
    assert.throws(() => new Matrix([[1, 2]]).multiply(new Matrix([[1, 2]])), /shape mismatch/);
  });
});
`,
    count: 4,
    bug: ["out[i][j] += this.rows[i][k] * other.rows[k][j]", "out[i][j] += this.rows[i][k] * other.rows[j][k]"],
    failing: "Matrix > multiplies",
  },
  {
    name: "expression evaluator, export { a, b }, import * as with jest globals",
    language: "javascript",
    artifact: `function tokenize(source) {
  const tokens = [];
  const pattern = /\\s*(\\d+\\.?\\d*|[-+*\\/()])/y;
  let index = 0;
  while (index < source.length) {
    pattern.lastIndex = index;
    const match = pattern.exec(source);
    if (!match) {
      if (/^\\s*$/.test(source.slice(index))) break;
      throw new SyntaxError('unexpected character at ' + index);
    }
    tokens.push(match[1]);
    index = pattern.lastIndex;
  }
  return tokens;
}

function evaluate(source) {
  const tokens = tokenize(source);
  let position = 0;
  const peek = () => tokens[position];
  const next = () => tokens[position++];

  function primary() {
    const token = next();
    if (token === '(') {
      const value = expression();
      if (next() !== ')') throw new SyntaxError('expected )');
      return value;
    }
    if (token === '-') return -primary();
    const value = Number(token);
    if (Number.isNaN(value)) throw new SyntaxError('unexpected token ' + token);
    return value;
  }

  function term() {
    let value = primary();
    while (peek() === '*' || peek() === '/') value = next() === '*' ? value * primary() : value / primary();
    return value;
  }

  function expression() {
    let value = term();
    while (peek() === '+' || peek() === '-') value = next() === '+' ? value + term() : value - term();
    return value;
  }

  const result = expression();
  if (position !== tokens.length) throw new SyntaxError('unexpected token ' + peek());
  return result;
}

export { tokenize, evaluate };
`,
    tests: `import * as calc from './calculator';

describe('calculator', () => {
  test('tokenizes numbers and operators', () => {
    expect(calc.tokenize('12 + 3.5*(2-1)')).toEqual(['12', '+', '3.5', '*', '(', '2', '-', '1', ')']);
  });

  test('respects precedence', () => {
    expect(calc.evaluate('2 + 3 * 4')).toBe(14);
    expect(calc.evaluate('(2 + 3) * 4')).toBe(20);
  });

  test('handles unary minus and division', () => {
    expect(calc.evaluate('-3 + 10 / 4')).toBeCloseTo(-0.5);
  });

  test('reports syntax errors', () => {
    expect(() => calc.evaluate('2 +')).toThrow(SyntaxError);
    expect(() => calc.evaluate('2 $ 3')).toThrow('unexpected character');
  });
});
`,
    count: 4,
    bug: ["while (peek() === '*' || peek() === '/') value", "while (peek() === '*') value"],
    failing: "calculator > handles unary minus and division",
  },
  {
    name: "concurrency-limited map, async export, vitest resolves/rejects",
    language: "javascript",
    artifact: `export async function mapLimit(items, limit, worker) {
  const results = new Array(items.length);
  let next = 0;
  let active = 0;
  let peak = 0;
  async function run() {
    while (next < items.length) {
      const index = next++;
      active++;
      peak = Math.max(peak, active);
      try {
        results[index] = await worker(items[index], index);
      } finally {
        active--;
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
  mapLimit.lastPeak = peak;
  return results;
}
`,
    tests: `import { test, expect } from 'vitest';
import { mapLimit } from './map-limit.js';

const delay = (ms, value) => new Promise((resolve) => setTimeout(() => resolve(value), ms));

test('keeps results in input order', async () => {
  const results = await mapLimit([30, 10, 20], 2, (ms) => delay(ms, ms * 2));
  expect(results).toEqual([60, 20, 40]);
});

test('never runs more than the limit at once', async () => {
  await mapLimit([1, 2, 3, 4, 5, 6], 2, (n) => delay(10 * n, n));
  expect(mapLimit.lastPeak).toBe(2);
});

test('propagates a failure', async () => {
  await expect(mapLimit([1, 2], 1, async (n) => { if (n === 2) throw new Error('boom'); return n; })).rejects.toThrow('boom');
});

test('handles an empty list', async () => {
  await expect(mapLimit([], 3, async () => 1)).resolves.toEqual([]);
});
`,
    count: 4,
    bug: ["results[index] = await worker(items[index], index);", "results.push(await worker(items[index], index));"],
    failing: "keeps results in input order",
  },
  {
    name: "trie class, imported from ../src with beforeEach and it.each",
    language: "javascript",
    artifact: `export class Trie {
  constructor() {
    this.root = { children: new Map(), end: false };
    this.count = 0;
  }

  insert(word) {
    let node = this.root;
    for (const ch of word) {
      if (!node.children.has(ch)) node.children.set(ch, { children: new Map(), end: false });
      node = node.children.get(ch);
    }
    if (!node.end) this.count++;
    node.end = true;
  }

  #find(prefix) {
    let node = this.root;
    for (const ch of prefix) {
      node = node.children.get(ch);
      if (!node) return null;
    }
    return node;
  }

  has(word) {
    const node = this.#find(word);
    return Boolean(node && node.end);
  }

  withPrefix(prefix) {
    const start = this.#find(prefix);
    const words = [];
    const walk = (node, path) => {
      if (node.end) words.push(path);
      for (const [ch, child] of [...node.children].sort(([a], [b]) => a.localeCompare(b))) walk(child, path + ch);
    };
    if (start) walk(start, prefix);
    return words;
  }
}
`,
    tests: `import { Trie } from '../src/trie';

describe('Trie', () => {
  let trie;
  beforeEach(() => {
    trie = new Trie();
    ['car', 'cart', 'care', 'dog'].forEach((word) => trie.insert(word));
  });

  it.each(['car', 'cart', 'care', 'dog'])('has %s', (word) => {
    expect(trie.has(word)).toBe(true);
  });

  it('does not have prefixes that were not inserted', () => {
    expect(trie.has('ca')).toBe(false);
  });

  it('lists words by prefix, sorted', () => {
    expect(trie.withPrefix('car')).toEqual(['car', 'care', 'cart']);
    expect(trie.withPrefix('x')).toEqual([]);
  });

  it('counts distinct words', () => {
    trie.insert('dog');
    expect(trie.count).toBe(4);
  });
});
`,
    count: 7,
    bug: ["    if (!node.end) this.count++;", "    this.count++;"],
    failing: "Trie > counts distinct words",
  },
  {
    name: "query strings, export const, node:test default import with before/after hooks",
    language: "javascript",
    artifact: `export const parseQuery = (query) => {
  const result = {};
  for (const part of query.replace(/^\\?/, '').split('&')) {
    if (!part) continue;
    const [rawKey, rawValue = ''] = part.split('=');
    const key = decodeURIComponent(rawKey.replace(/\\+/g, ' '));
    const value = decodeURIComponent(rawValue.replace(/\\+/g, ' '));
    if (key in result) result[key] = [].concat(result[key], value);
    else result[key] = value;
  }
  return result;
};

export const stringifyQuery = (params) =>
  Object.entries(params)
    .flatMap(([key, value]) => (Array.isArray(value) ? value : [value]).map((v) => encodeURIComponent(key) + '=' + encodeURIComponent(v)))
    .join('&');
`,
    tests: `import test, { before, after } from 'node:test';
import assert from 'node:assert';
import { parseQuery, stringifyQuery } from './query.js';

let fixtures;
before(() => {
  fixtures = { simple: '?a=1&b=two', repeated: 'tag=x&tag=y', encoded: 'q=hello+world%21' };
});
after(() => {
  fixtures = undefined;
});

test('parses simple pairs', () => {
  assert.deepEqual(parseQuery(fixtures.simple), { a: '1', b: 'two' });
});

test('collects repeated keys into arrays', () => {
  assert.deepEqual(parseQuery(fixtures.repeated), { tag: ['x', 'y'] });
});

test('decodes plus signs and escapes', () => {
  assert.equal(parseQuery(fixtures.encoded).q, 'hello world!');
});

test('round-trips through stringify', () => {
  const params = { a: '1', tag: ['x', 'y'] };
  assert.deepStrictEqual(parseQuery(stringifyQuery(params)), params);
});
`,
    count: 4,
    bug: ["if (key in result) result[key] = [].concat(result[key], value);\n    else result[key] = value;", "result[key] = value;"],
    failing: "collects repeated keys into arrays",
  },
  {
    name: "deep merge, export default function, toEqual/toStrictEqual",
    language: "javascript",
    artifact: `const isPlainObject = (value) => Object.prototype.toString.call(value) === '[object Object]';

export default function deepMerge(target, ...sources) {
  const out = { ...target };
  for (const source of sources) {
    for (const [key, value] of Object.entries(source ?? {})) {
      if (key === '__proto__' || key === 'constructor') continue;
      out[key] = isPlainObject(value) && isPlainObject(out[key]) ? deepMerge(out[key], value) : value;
    }
  }
  return out;
}
`,
    tests: `import deepMerge from './deep-merge.js';

test('merges nested objects', () => {
  expect(deepMerge({ a: { x: 1 }, b: 1 }, { a: { y: 2 } })).toEqual({ a: { x: 1, y: 2 }, b: 1 });
});

test('later sources win, arrays are replaced', () => {
  expect(deepMerge({ list: [1, 2], n: 1 }, { list: [3] }, { n: 2 })).toStrictEqual({ list: [3], n: 2 });
});

test('does not mutate the inputs', () => {
  const target = { a: { x: 1 } };
  deepMerge(target, { a: { y: 1 } });
  expect(target).toEqual({ a: { x: 1 } });
});

test('ignores __proto__ keys', () => {
  const merged = deepMerge({}, JSON.parse('{"__proto__": {"polluted": true}}'));
  expect({}.polluted).toBeUndefined();
  expect(merged.polluted).toBeUndefined();
});
`,
    count: 4,
    bug: ["isPlainObject(value) && isPlainObject(out[key]) ? deepMerge(out[key], value) : value", "value"],
    failing: "merges nested objects",
  },
  {
    name: "mixed: ES module artifact, CommonJS tests",
    language: "javascript",
    artifact: `export function isPalindrome(text) {
  const letters = text.toLowerCase().replace(/[^a-z0-9]/g, '');
  return letters === [...letters].reverse().join('');
}

export function longestPalindrome(text) {
  let best = '';
  for (let center = 0; center < text.length; center++) {
    for (const [lo0, hi0] of [[center, center], [center, center + 1]]) {
      let lo = lo0;
      let hi = hi0;
      while (lo >= 0 && hi < text.length && text[lo] === text[hi]) {
        lo--;
        hi++;
      }
      if (hi - lo - 1 > best.length) best = text.slice(lo + 1, hi);
    }
  }
  return best;
}
`,
    tests: `const assert = require('node:assert/strict');
const { isPalindrome, longestPalindrome } = require('./palindrome');

describe('palindromes', () => {
  it('ignores case and punctuation', () => {
    assert.ok(isPalindrome('A man, a plan, a canal: Panama'));
    assert.equal(isPalindrome('hello'), false);
  });

  it('finds the longest palindromic substring', () => {
    assert.equal(longestPalindrome('babad').length, 3);
    assert.equal(longestPalindrome('cbbd'), 'bb');
    assert.equal(longestPalindrome('forgeeksskeegfor'), 'geeksskeeg');
  });
});
`,
    count: 2,
    bug: ["[[center, center], [center, center + 1]]", "[[center, center]]"],
    failing: "palindromes > finds the longest palindromic substring",
  },
  {
    name: "mixed: CommonJS artifact, ES module tests with a default and a named import",
    language: "javascript",
    artifact: `function fizzbuzz(n) {
  if (n % 15 === 0) return 'FizzBuzz';
  if (n % 3 === 0) return 'Fizz';
  if (n % 5 === 0) return 'Buzz';
  return String(n);
}

function sequence(count) {
  return Array.from({ length: count }, (_, i) => fizzbuzz(i + 1));
}

module.exports = { fizzbuzz, sequence };
`,
    tests: `import fb, { fizzbuzz } from './fizzbuzz.js';
import { expect, test } from '@jest/globals';

test('multiples of three and five', () => {
  expect(fizzbuzz(3)).toBe('Fizz');
  expect(fizzbuzz(10)).toBe('Buzz');
  expect(fizzbuzz(30)).toBe('FizzBuzz');
  expect(fizzbuzz(7)).toBe('7');
});

test('the default import is the whole module', () => {
  expect(fb.sequence(5)).toEqual(['1', '2', 'Fizz', '4', 'Buzz']);
});
`,
    count: 2,
    bug: ["  if (n % 15 === 0) return 'FizzBuzz';\n", ""],
    failing: "multiples of three and five",
  },
  {
    name: "global style: plain functions, tests call them by name",
    language: "javascript",
    artifact: `function wordFrequencies(text) {
  const counts = new Map();
  for (const word of text.toLowerCase().match(/[a-z']+/g) || []) {
    counts.set(word, (counts.get(word) || 0) + 1);
  }
  return counts;
}

function topWords(text, n) {
  return [...wordFrequencies(text)]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, n)
    .map(([word]) => word);
}
`,
    tests: `test('counts words case-insensitively', () => {
  const counts = wordFrequencies('The cat and the hat');
  expect(counts.get('the')).toBe(2);
  expect(counts.size).toBe(4);
});

test('top words break ties alphabetically', () => {
  expect(topWords('b a c b a d', 3)).toEqual(['a', 'b', 'c']);
});

test('empty text', () => {
  expect(topWords('', 5)).toEqual([]);
});
`,
    count: 3,
    bug: ["b[1] - a[1] || a[0].localeCompare(b[0])", "b[1] - a[1]"],
    failing: "top words break ties alphabetically",
  },
  {
    name: "global style: top-level asserts only, no test()",
    language: "javascript",
    artifact: `function gcd(a, b) {
  while (b !== 0) [a, b] = [b, a % b];
  return Math.abs(a);
}

function lcm(a, b) {
  return a === 0 || b === 0 ? 0 : Math.abs(a * b) / gcd(a, b);
}
`,
    tests: `assert.strictEqual(gcd(12, 8), 4);
assert.strictEqual(gcd(17, 5), 1);
assert.strictEqual(lcm(4, 6), 12);
assert.strictEqual(lcm(0, 5), 0);
`,
    count: 1,
    bug: ["Math.abs(a * b) / gcd(a, b)", "Math.abs(a * b)"],
    failing: "(top level)",
  },
  {
    name: "async queue with async hooks, skip and todo",
    language: "javascript",
    artifact: `export class AsyncQueue {
  #items = [];
  #waiters = [];

  push(item) {
    const waiter = this.#waiters.shift();
    if (waiter) waiter(item);
    else this.#items.push(item);
  }

  pop() {
    if (this.#items.length > 0) return Promise.resolve(this.#items.shift());
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  get pending() {
    return this.#items.length;
  }
}
`,
    tests: `import { AsyncQueue } from './async-queue';

let queue;

beforeEach(async () => {
  await new Promise((resolve) => setTimeout(resolve, 5));
  queue = new AsyncQueue();
});

afterEach(async () => {
  queue = null;
});

it('pops items in FIFO order', async () => {
  queue.push(1);
  queue.push(2);
  expect(await queue.pop()).toBe(1);
  expect(await queue.pop()).toBe(2);
});

it('waits for an item when empty', async () => {
  const popped = queue.pop();
  setTimeout(() => queue.push('late'), 50);
  await expect(popped).resolves.toBe('late');
  expect(queue.pending).toBe(0);
});

it.skip('supports a capacity (not yet)', () => {
  expect(true).toBe(false);
});

test.todo('supports closing the queue');
`,
    count: 2,
    bug: ["    if (this.#items.length > 0) return Promise.resolve(this.#items.shift());", "    if (this.#items.length > 0) return Promise.resolve(this.#items.pop());"],
    failing: "pops items in FIFO order",
  },
];
