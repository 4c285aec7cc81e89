/**
 * The sandbox's timer queue, kept on the host side so code under test cannot reorder or drop
 * entries. Time is virtual: the clock jumps to the next timer when nothing else is runnable,
 * so a 10-second setTimeout costs nothing. Entries hold QuickJS handles (the callback and its
 * arguments), which are released when the timer runs or is cleared.
 */
export const MAX_PENDING_TIMERS = 10_000;
const MAX_DELAY_MS = 2 ** 31 - 1;

export class VirtualTimers {
  #heap = [];
  #pending = new Map();
  #now = 0;
  #nextId = 1;

  get size() {
    return this.#pending.size;
  }

  /** Virtual milliseconds skipped so far by jumping to timers; the sandbox's Date adds them. */
  get skippedMs() {
    return this.#now;
  }

  /** Adds a timer and returns its id. The caller enforces MAX_PENDING_TIMERS. */
  schedule(callback, args, delayMs, where) {
    // As in Node: a delay that is not a number in [0, 2^31 - 1] counts as 1 ms.
    const delay = Number.isFinite(delayMs) && delayMs >= 0 && delayMs <= MAX_DELAY_MS ? delayMs : 1;
    const timer = { id: this.#nextId++, time: this.#now + delay, delay, callback, args, where };
    this.#pending.set(timer.id, timer);
    this.#push(timer);
    return timer.id;
  }

  cancel(id) {
    const timer = this.#pending.get(id);
    if (!timer) return;
    this.#pending.delete(id);
    release(timer);
    // Cleared timers stay in the heap until popped; rebuild it so set/clear loops cannot grow it.
    if (this.#heap.length > 2 * this.#pending.size + 1000) {
      this.#heap = [];
      for (const entry of this.#pending.values()) this.#push(entry);
    }
  }

  /** Removes the earliest pending timer and advances the clock to it; the caller releases its handles. */
  takeNext() {
    while (this.#heap.length > 0) {
      const timer = this.#pop();
      if (!this.#pending.delete(timer.id)) continue; // cleared meanwhile
      this.#now = timer.time;
      return timer;
    }
    return undefined;
  }

  /** The earliest pending timer, for messages. */
  peek() {
    let first;
    for (const timer of this.#pending.values()) if (!first || before(timer, first)) first = timer;
    return first;
  }

  #push(timer) {
    const heap = this.#heap;
    heap.push(timer);
    for (let i = heap.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  }

  #pop() {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0) {
      heap[0] = last;
      for (let i = 0; ; ) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < heap.length && before(heap[left], heap[smallest])) smallest = left;
        if (right < heap.length && before(heap[right], heap[smallest])) smallest = right;
        if (smallest === i) break;
        [heap[i], heap[smallest]] = [heap[smallest], heap[i]];
        i = smallest;
      }
    }
    return top;
  }
}

function before(a, b) {
  return a.time < b.time || (a.time === b.time && a.id < b.id);
}

export function release(timer) {
  timer.callback.dispose();
  timer.args.dispose();
}
