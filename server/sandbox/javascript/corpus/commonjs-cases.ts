import type { CorpusCase } from "./corpus-case";

/** CommonJS artifacts (module.exports, exports.x), tests that require() them. */
export const COMMONJS_CASES: readonly CorpusCase[] = [
  {
    name: "LRU cache class, module.exports = Class, jest globals with node's assert",
    language: "javascript",
    artifact: `class LRUCache {
  constructor(capacity) {
    if (!Number.isInteger(capacity) || capacity <= 0) throw new RangeError("capacity must be a positive integer");
    this.capacity = capacity;
    this.map = new Map();
  }

  get(key) {
    if (!this.map.has(key)) return undefined;
    const value = this.map.get(key);
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  put(key, value) {
    if (this.map.has(key)) this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) {
      const oldest = this.map.keys().next().value;
      this.map.delete(oldest);
    }
  }

  get size() {
    return this.map.size;
  }
}

module.exports = LRUCache;
`,
    tests: `const assert = require('assert');
const LRUCache = require('../src/lru-cache');

describe('LRUCache', () => {
  let cache;

  beforeEach(() => {
    cache = new LRUCache(2);
  });

  it('returns undefined for missing keys', () => {
    assert.strictEqual(cache.get('nope'), undefined);
  });

  it('stores and retrieves values', () => {
    cache.put('a', 1);
    assert.strictEqual(cache.get('a'), 1);
  });

  it('evicts the least recently used entry', () => {
    cache.put('a', 1);
    cache.put('b', 2);
    cache.get('a');
    cache.put('c', 3);
    assert.strictEqual(cache.get('b'), undefined);
    assert.strictEqual(cache.get('a'), 1);
    assert.strictEqual(cache.get('c'), 3);
    assert.strictEqual(cache.size, 2);
  });

  it('rejects a bad capacity', () => {
    assert.throws(() => new LRUCache(0), RangeError);
  });
});
`,
    count: 4,
    bug: ["    this.map.delete(key);\n    this.map.set(key, value);\n    return value;", "    return value;"],
    failing: "LRUCache > evicts the least recently used entry",
  },
  {
    name: "debounce, module.exports = { debounce }, node:test with assert/strict and real waits on the virtual clock",
    language: "javascript",
    artifact: `'use strict';

/**
 * Returns a function that delays invoking fn until wait ms have elapsed since the last call.
 */
function debounce(fn, wait) {
  let timer = null;
  function debounced(...args) {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      fn.apply(this, args);
    }, wait);
  }
  debounced.cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  return debounced;
}

module.exports = { debounce };
`,
    tests: `const test = require('node:test');
const assert = require('node:assert/strict');
const { debounce } = require('./debounce');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

test('calls the function once after the wait', async () => {
  const calls = [];
  const debounced = debounce((value) => calls.push(value), 50);
  debounced(1);
  debounced(2);
  debounced(3);
  assert.deepEqual(calls, []);
  await sleep(60);
  assert.deepEqual(calls, [3]);
});

test('restarts the wait on every call', async () => {
  let count = 0;
  const debounced = debounce(() => count++, 100);
  debounced();
  await sleep(60);
  debounced();
  await sleep(60);
  assert.equal(count, 0);
  await sleep(50);
  assert.equal(count, 1);
});

test('cancel prevents the pending call', async () => {
  let count = 0;
  const debounced = debounce(() => count++, 20);
  debounced();
  debounced.cancel();
  await sleep(30);
  assert.equal(count, 0);
});
`,
    count: 3,
    bug: ["    }, wait);", "    }, wait / 2);"],
    failing: "restarts the wait on every call",
  },
  {
    name: "string helpers, exports.x = ..., jest expect with a relative path into src/",
    language: "javascript",
    artifact: `exports.slugify = function slugify(text) {
  return String(text)
    .normalize('NFKD')
    .replace(/[\\u0300-\\u036f]/g, '')
    .toLowerCase()
    .trim()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
};

exports.capitalize = (word) => (word ? word[0].toUpperCase() + word.slice(1) : '');

exports.truncate = (text, max) => (text.length <= max ? text : text.slice(0, Math.max(0, max - 1)) + '…');
`,
    tests: `const { slugify, capitalize, truncate } = require('../src/strings');

describe('slugify', () => {
  test('lowercases and joins words with dashes', () => {
    expect(slugify('Hello World')).toBe('hello-world');
  });
  test('drops accents and punctuation', () => {
    expect(slugify('  Crème brûlée, s\\'il vous plaît!  ')).toBe('creme-brulee-s-il-vous-plait');
  });
});

describe('capitalize', () => {
  test('uppercases the first letter', () => {
    expect(capitalize('hello')).toBe('Hello');
  });
  test('handles the empty string', () => {
    expect(capitalize('')).toBe('');
  });
});

test('truncate adds an ellipsis only when needed', () => {
  expect(truncate('short', 10)).toBe('short');
  expect(truncate('a longer sentence', 8)).toBe('a longe…');
  expect(truncate('a longer sentence', 8)).toHaveLength(8);
});
`,
    count: 5,
    bug: [".replace(/^-+|-+$/g, '')", ".replace(/^-+/g, '')"],
    failing: "slugify > drops accents and punctuation",
  },
  {
    name: "CSV parser, module.exports.parseCSV, node:test subtests with t.test",
    language: "javascript",
    artifact: `function parseLine(line, delimiter) {
  const fields = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') {
        quoted = false;
      } else {
        field += ch;
      }
    } else if (ch === '"') {
      quoted = true;
    } else if (ch === delimiter) {
      fields.push(field);
      field = '';
    } else {
      field += ch;
    }
  }
  fields.push(field);
  return fields;
}

module.exports.parseCSV = function parseCSV(text, { delimiter = ',', header = true } = {}) {
  const lines = text.split(/\\r?\\n/).filter((line) => line.trim() !== '');
  const rows = lines.map((line) => parseLine(line, delimiter));
  if (!header) return rows;
  const [names, ...data] = rows;
  return data.map((row) => Object.fromEntries(names.map((name, i) => [name, row[i] ?? ''])));
};
`,
    tests: `const { test } = require('node:test');
const assert = require('node:assert');
const { parseCSV } = require('./csv');

test('parseCSV', async (t) => {
  await t.test('parses rows into objects keyed by the header', () => {
    assert.deepStrictEqual(parseCSV('name,age\\nAda,36\\nAlan,41\\n'), [
      { name: 'Ada', age: '36' },
      { name: 'Alan', age: '41' },
    ]);
  });

  await t.test('handles quoted fields with commas and escaped quotes', () => {
    const [row] = parseCSV('title,quote\\n"Hello, world","She said ""hi"""');
    assert.strictEqual(row.title, 'Hello, world');
    assert.strictEqual(row.quote, 'She said "hi"');
  });

  await t.test('supports other delimiters and no header', () => {
    assert.deepStrictEqual(parseCSV('a;b\\nc;d', { delimiter: ';', header: false }), [['a', 'b'], ['c', 'd']]);
  });
});
`,
    count: 4,
    bug: ["    if (quoted) {", "    if (quoted && ch !== delimiter) {"],
    failing: "parseCSV > handles quoted fields with commas and escaped quotes",
  },
  {
    name: "event emitter, jest.fn() mocks from @jest/globals",
    language: "javascript",
    artifact: `class Emitter {
  constructor() {
    this.listeners = new Map();
  }

  on(event, listener) {
    if (!this.listeners.has(event)) this.listeners.set(event, []);
    this.listeners.get(event).push(listener);
    return () => this.off(event, listener);
  }

  once(event, listener) {
    const off = this.on(event, (...args) => {
      off();
      listener(...args);
    });
    return off;
  }

  off(event, listener) {
    const list = this.listeners.get(event) || [];
    this.listeners.set(event, list.filter((l) => l !== listener));
  }

  emit(event, ...args) {
    const list = [...(this.listeners.get(event) || [])];
    list.forEach((listener) => listener(...args));
    return list.length > 0;
  }
}

module.exports = { Emitter };
`,
    tests: `const { describe, it, expect, jest } = require('@jest/globals');
const { Emitter } = require('./emitter');

describe('Emitter', () => {
  it('calls listeners with the emitted arguments', () => {
    const emitter = new Emitter();
    const listener = jest.fn();
    emitter.on('data', listener);
    expect(emitter.emit('data', 1, 'two')).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener).toHaveBeenCalledWith(1, 'two');
  });

  it('once listeners fire a single time', () => {
    const emitter = new Emitter();
    const listener = jest.fn();
    emitter.once('ping', listener);
    emitter.emit('ping');
    emitter.emit('ping');
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('unsubscribes with the returned function', () => {
    const emitter = new Emitter();
    const listener = jest.fn();
    const off = emitter.on('x', listener);
    off();
    expect(emitter.emit('x')).toBe(false);
    expect(listener).not.toHaveBeenCalled();
  });
});
`,
    count: 3,
    bug: ["      off();\n      listener(...args);", "      listener(...args);"],
    failing: "Emitter > once listeners fire a single time",
  },
  {
    name: "stack, module.exports at the end, tests in the global style that call it by name",
    language: "javascript",
    artifact: `class Stack {
  constructor() {
    this.items = [];
  }
  push(item) {
    this.items.push(item);
    return this;
  }
  pop() {
    if (this.isEmpty()) throw new Error('stack is empty');
    return this.items.pop();
  }
  peek() {
    return this.items[this.items.length - 1];
  }
  isEmpty() {
    return this.items.length === 0;
  }
}

function isBalanced(text) {
  const pairs = { ')': '(', ']': '[', '}': '{' };
  const stack = new Stack();
  for (const ch of text) {
    if ('([{'.includes(ch)) stack.push(ch);
    else if (ch in pairs) {
      if (stack.isEmpty() || stack.pop() !== pairs[ch]) return false;
    }
  }
  return stack.isEmpty();
}

module.exports = { Stack, isBalanced };
`,
    tests: `test('push and pop are LIFO', () => {
  const stack = new Stack().push(1).push(2);
  expect(stack.pop()).toBe(2);
  expect(stack.peek()).toBe(1);
});

test('pop on an empty stack throws', () => {
  expect(() => new Stack().pop()).toThrow('stack is empty');
});

test('isBalanced', () => {
  expect(isBalanced('{[()()]}')).toBe(true);
  expect(isBalanced('([)]')).toBe(false);
  expect(isBalanced('((')).toBe(false);
});
`,
    count: 3,
    bug: ["  return stack.isEmpty();\n}", "  return true;\n}"],
    failing: "isBalanced",
  },
  {
    name: "async retry with backoff, expect().rejects and resolves",
    language: "javascript",
    artifact: `const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function retry(operation, { retries = 3, delay = 100, factor = 2 } = {}) {
  let attempt = 0;
  let wait = delay;
  for (;;) {
    try {
      return await operation(attempt);
    } catch (error) {
      if (attempt >= retries) throw error;
      attempt += 1;
      await sleep(wait);
      wait *= factor;
    }
  }
}

module.exports = { retry };
`,
    tests: `const { retry } = require('./retry');

describe('retry', () => {
  it('resolves with the first successful result', async () => {
    let calls = 0;
    const result = await retry(async () => {
      calls += 1;
      if (calls < 3) throw new Error('flaky');
      return 'ok';
    });
    expect(result).toBe('ok');
    expect(calls).toBe(3);
  });

  it('gives up after the configured retries', async () => {
    let calls = 0;
    await expect(retry(() => { calls += 1; return Promise.reject(new Error('down')); }, { retries: 2, delay: 10 })).rejects.toThrow('down');
    expect(calls).toBe(3);
  });

  it('backs off exponentially', async () => {
    const started = Date.now();
    await expect(retry(() => Promise.reject(new Error('x')), { retries: 3, delay: 100 })).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
  });

  it('passes the attempt number', async () => {
    await expect(retry((attempt) => (attempt === 1 ? Promise.resolve(attempt) : Promise.reject(new Error('no'))))).resolves.toBe(1);
  });
});
`,
    count: 4,
    bug: ["      if (attempt >= retries) throw error;", "      if (attempt >= retries - 1) throw error;"],
    failing: "retry > gives up after the configured retries",
  },
  {
    name: "roman numerals, test.each with arrays",
    language: "javascript",
    artifact: `const NUMERALS = [
  [1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'], [90, 'XC'],
  [50, 'L'], [40, 'XL'], [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I'],
];

function toRoman(n) {
  if (!Number.isInteger(n) || n < 1 || n > 3999) throw new RangeError('out of range: ' + n);
  let out = '';
  for (const [value, symbol] of NUMERALS) {
    while (n >= value) {
      out += symbol;
      n -= value;
    }
  }
  return out;
}

function fromRoman(text) {
  const values = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };
  let total = 0;
  for (let i = 0; i < text.length; i++) {
    const current = values[text[i]];
    const next = values[text[i + 1]] || 0;
    total += current < next ? -current : current;
  }
  return total;
}

module.exports = { toRoman, fromRoman };
`,
    tests: `const { toRoman, fromRoman } = require('./roman');

describe('roman numerals', () => {
  test.each([
    [1, 'I'],
    [4, 'IV'],
    [9, 'IX'],
    [14, 'XIV'],
    [1994, 'MCMXCIV'],
    [3999, 'MMMCMXCIX'],
  ])('toRoman(%i) is %s', (n, expected) => {
    expect(toRoman(n)).toBe(expected);
  });

  it.each(['XLII', 'MMXXIV', 'CDXLIV'])('round-trips %s', (numeral) => {
    expect(toRoman(fromRoman(numeral))).toBe(numeral);
  });

  test('rejects zero', () => {
    expect(() => toRoman(0)).toThrow(RangeError);
  });
});
`,
    count: 10,
    bug: ["[90, 'XC'],", ""],
    failing: "roman numerals > toRoman(1994) is MCMXCIV",
  },
  {
    name: "bank account, assert.throws with a pattern, require('assert').strict",
    language: "javascript",
    artifact: `class InsufficientFundsError extends Error {
  constructor(balance, amount) {
    super('Insufficient funds: balance ' + balance + ', requested ' + amount);
    this.name = 'InsufficientFundsError';
  }
}

class Account {
  #balance = 0;
  constructor(owner) {
    this.owner = owner;
    this.history = [];
  }
  get balance() {
    return this.#balance;
  }
  deposit(amount) {
    if (amount <= 0) throw new TypeError('deposit must be positive');
    this.#balance += amount;
    this.history.push({ type: 'deposit', amount });
  }
  withdraw(amount) {
    if (amount > this.#balance) throw new InsufficientFundsError(this.#balance, amount);
    this.#balance -= amount;
    this.history.push({ type: 'withdraw', amount });
  }
}

module.exports = { Account, InsufficientFundsError };
`,
    tests: `const assert = require('assert').strict;
const { Account, InsufficientFundsError } = require('./account.js');

describe('Account', function () {
  it('starts empty', function () {
    assert.equal(new Account('ada').balance, 0);
  });

  it('deposits and withdraws', function () {
    const account = new Account('ada');
    account.deposit(100);
    account.withdraw(30);
    assert.equal(account.balance, 70);
    assert.deepEqual(account.history, [
      { type: 'deposit', amount: 100 },
      { type: 'withdraw', amount: 30 },
    ]);
  });

  it('refuses to overdraw', function () {
    const account = new Account('ada');
    account.deposit(10);
    assert.throws(() => account.withdraw(11), /Insufficient funds/);
    assert.throws(() => account.withdraw(11), InsufficientFundsError);
    assert.equal(account.balance, 10);
  });

  it('refuses non-positive deposits', function () {
    assert.throws(() => new Account('ada').deposit(-5), { name: 'TypeError', message: 'deposit must be positive' });
  });
});
`,
    count: 4,
    bug: ["if (amount > this.#balance)", "if (amount > this.#balance + 1)"],
    failing: "Account > refuses to overdraw",
  },
  {
    name: "memoize, done callbacks and mocks with jest globals",
    language: "javascript",
    artifact: `function memoize(fn, { key = (...args) => JSON.stringify(args) } = {}) {
  const cache = new Map();
  const memoized = function (...args) {
    const k = key(...args);
    if (cache.has(k)) return cache.get(k);
    const result = fn.apply(this, args);
    cache.set(k, result);
    return result;
  };
  memoized.clear = () => cache.clear();
  return memoized;
}

function later(value, ms, callback) {
  setTimeout(() => callback(null, value), ms);
}

module.exports = { memoize, later };
`,
    tests: `const { memoize, later } = require('./memoize');

describe('memoize', () => {
  test('computes once per distinct arguments', () => {
    const square = jest.fn((n) => n * n);
    const fast = memoize(square);
    expect(fast(3)).toBe(9);
    expect(fast(3)).toBe(9);
    expect(fast(4)).toBe(16);
    expect(square).toHaveBeenCalledTimes(2);
    expect(square.mock.calls).toEqual([[3], [4]]);
  });

  test('clear empties the cache', () => {
    const fn = jest.fn().mockReturnValue(1);
    const fast = memoize(fn);
    fast('a');
    fast.clear();
    fast('a');
    expect(fn).toHaveBeenCalledTimes(2);
  });
});

test('later calls back with the value', (done) => {
  later(42, 100, (error, value) => {
    try {
      expect(error).toBeNull();
      expect(value).toBe(42);
      done();
    } catch (e) {
      done(e);
    }
  });
});
`,
    count: 3,
    bug: ["    if (cache.has(k)) return cache.get(k);\n", ""],
    failing: "memoize > computes once per distinct arguments",
  },
];
