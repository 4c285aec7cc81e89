import { describe, expect, it } from "vitest";
import { compareQueuePlaces, nextPendingAfter, type QueuePlace } from "./next-pending";

const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes));
const place = (id: string, deadline: number | null, raised = 0): QueuePlace => ({ id, expiresAt: deadline === null ? null : at(deadline), createdAt: at(raised) });

describe("nextPendingAfter", () => {
  const queue = [place("c", 30), place("a", 10), place("b", 20), place("none", null)];

  it("goes on to the next deadline, whatever order the rows came in", () => {
    expect(nextPendingAfter(queue, place("a", 10))).toBe("b");
    expect(nextPendingAfter(queue, place("b", 20))).toBe("c");
    expect(nextPendingAfter(queue, place("c", 30))).toBe("none");
  });

  it("wraps to the first of the queue after the last, never answering the current one", () => {
    expect(nextPendingAfter(queue, place("none", null))).toBe("a");
    expect(nextPendingAfter([place("only", 5)], place("only", 5))).toBeNull();
  });

  it("goes on from a decided escalation's place although it left the pending list", () => {
    expect(nextPendingAfter(queue, place("decided", 15))).toBe("b");
  });

  it("starts at the head without a current one, and answers null for an empty queue", () => {
    expect(nextPendingAfter(queue, null)).toBe("a");
    expect(nextPendingAfter([], null)).toBeNull();
  });

  it("breaks ties by when they were raised, then by id", () => {
    expect(compareQueuePlaces(place("x", 10, 1), place("y", 10, 2))).toBeLessThan(0);
    expect(compareQueuePlaces(place("x", 10, 1), place("y", 10, 1))).toBeLessThan(0);
    expect(nextPendingAfter([place("y", 10, 1), place("x", 10, 1)], place("x", 10, 1))).toBe("y");
  });
});
