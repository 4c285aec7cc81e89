import { describe, expect, it } from "vitest";
import { eventCap } from "./capped-fetch";

async function pass(pieces: readonly string[], max: number): Promise<string> {
  const encoder = new TextEncoder();
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
  return new Response(source.pipeThrough(eventCap(max))).text();
}

describe("eventCap", () => {
  it("passes events of any number as long as each fits, with \\n, \\r\\n and split blank lines", async () => {
    const events = ["data: 12345\n\n", "data: 12345\r\n\r\n", "data: 1234", "5\n", "\n", "data: 12345\r\n", "\r\n"];
    expect(await pass([...events, ...events, ...events], 16)).toBe([...events, ...events, ...events].join(""));
  });

  it("fails an event longer than the bound, even when made of short lines", async () => {
    await expect(pass(["data: a\ndata: b\ndata: c\n"], 16)).rejects.toMatchObject({ name: "ResponseTooLargeError" });
    await expect(pass(["x".repeat(17)], 16)).rejects.toMatchObject({ name: "ResponseTooLargeError" });
  });

  it("does not take a lone newline at the start of a line of text for a blank line", async () => {
    await expect(pass(["aaaaaaaaaa\n", "bbbbbbbbbb\n"], 16)).rejects.toMatchObject({ name: "ResponseTooLargeError" });
  });
});
