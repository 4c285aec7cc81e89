import { describe, expect, it } from "vitest";
import { applyListChange, dayRange, isDay, parseListState, serializeListState } from "./list-state";

const FILTERS = {
  status: { kind: "choice", values: ["running", "failed"] },
  queue: { kind: "choice", values: ["pending", "all"], default: "pending" },
  from: { kind: "day" },
  actor: { kind: "text", maxLength: 10 },
} as const;

const parse = (query: string) => parseListState(new URLSearchParams(query), FILTERS);

describe("parseListState", () => {
  it("reads search, filters, page and size", () => {
    expect(parse("q=%20lru%20&status=failed&queue=all&from=2026-11-02&actor=ada&page=3&size=50")).toEqual({
      search: "lru",
      filters: { status: "failed", queue: "all", from: "2026-11-02", actor: "ada" },
      page: 3,
      pageSize: 50,
    });
  });

  it("gives defaults for an empty query", () => {
    expect(parse("")).toEqual({ search: "", filters: { status: "", queue: "pending", from: "", actor: "" }, page: 1, pageSize: 25 });
  });

  it("ignores unknown parameters and values outside a choice", () => {
    const state = parse("status=exploded&queue=everything&sort=evil&__proto__=x");
    expect(state.filters).toEqual({ status: "", queue: "pending", from: "", actor: "" });
    expect(Object.keys(state.filters)).toEqual(["status", "queue", "from", "actor"]);
  });

  it.each([
    ["page=0", 1],
    ["page=-2", 1],
    ["page=2.5", 1],
    ["page=abc", 1],
    ["page=99999999", 10_000],
    ["page=1e3", 1],
  ])("bounds the page: %s → %d", (query, page) => {
    expect(parse(query).page).toBe(page);
  });

  it.each([
    ["size=100", 100],
    ["size=10", 10],
    ["size=1000", 25],
    ["size=7", 25],
    ["size=", 25],
  ])("only offered page sizes, capped: %s → %d", (query, size) => {
    expect(parse(query).pageSize).toBe(size);
  });

  it("caps search and text filters, and refuses days that do not exist", () => {
    const state = parse(`q=${"x".repeat(500)}&actor=${"a".repeat(50)}&from=2026-02-30`);
    expect(state.search).toHaveLength(200);
    expect(state.filters.actor).toBe("a".repeat(10));
    expect(state.filters.from).toBe("");
  });
});

describe("serializeListState", () => {
  it("leaves defaults out and round-trips", () => {
    const state = parse("status=running&q=cache&page=2&size=10&from=2026-01-31");
    const query = serializeListState(state, FILTERS).toString();
    expect(query).toBe("status=running&from=2026-01-31&q=cache&page=2&size=10");
    expect(parse(query)).toEqual(state);
    expect(serializeListState(parse(""), FILTERS).toString()).toBe("");
  });

  it("drops invalid values a caller put in the state", () => {
    const query = serializeListState({ search: "  ", filters: { status: "nope", queue: "all", from: "yesterday", actor: "" }, page: 0, pageSize: 33 }, FILTERS).toString();
    expect(query).toBe("queue=all");
  });
});

describe("a list with its own default page size", () => {
  it("leaves that size out of the URL and writes the global default when chosen", () => {
    const state = parseListState(new URLSearchParams(""), FILTERS, 50);
    expect(state.pageSize).toBe(50);
    expect(serializeListState(state, FILTERS, 50).toString()).toBe("");
    expect(serializeListState({ ...state, pageSize: 25 }, FILTERS, 50).toString()).toBe("size=25");
  });
});

describe("applyListChange", () => {
  const state = parse("status=running&page=4");
  it("goes back to page 1 when what is listed changes", () => {
    expect(applyListChange(state, { search: "x" }).page).toBe(1);
    expect(applyListChange(state, { filters: { status: "failed" } })).toMatchObject({ page: 1, filters: { status: "failed", queue: "pending" } });
    expect(applyListChange(state, { pageSize: 50 }).page).toBe(1);
  });
  it("keeps the filters when paging", () => {
    expect(applyListChange(state, { page: 5 })).toMatchObject({ page: 5, filters: { status: "running" } });
  });
});

describe("days", () => {
  it("knows real days", () => {
    expect(isDay("2024-02-29")).toBe(true);
    expect(isDay("2023-02-29")).toBe(false);
    expect(isDay("2023-2-1")).toBe(false);
  });
  it("covers whole local days, the last one included", () => {
    const range = dayRange("2026-11-01", "2026-11-02");
    expect(range.from).toEqual(new Date(2026, 10, 1));
    expect(range.to).toEqual(new Date(2026, 10, 3));
    expect(dayRange("", "nonsense")).toEqual({});
  });
});
