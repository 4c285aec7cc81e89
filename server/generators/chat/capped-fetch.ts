import { ResponseTooLargeError } from "./retry-policy";

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * `fetch` for the OpenAI client with a bound on what the client may hold in memory at once: no
 * response body may carry more than `maxEventBytes` without a blank line. The SDK buffers a
 * whole server-sent event (and a whole error body) before we see any of it, so a server sending
 * one endless event would otherwise grow the worker without limit until the deadline. A JSON
 * body has no blank line, so for it this is a bound on its whole size. Past the bound, reading
 * fails with ResponseTooLargeError.
 */
export function cappedFetch(maxEventBytes: number, inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (!response.body) return response;
    const body = response.body.pipeThrough(eventCap(maxEventBytes));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** Passes bytes through, counting those since the last blank line ("\n\n", "\r\n\r\n" or "\n\r\n"). */
export function eventCap(maxEventBytes: number): TransformStream<Uint8Array, Uint8Array> {
  let sinceBlankLine = 0;
  // Whether the bytes since the last newline were only "\r" (so one more newline makes a blank line).
  let lineEmpty = false;
  return new TransformStream({
    transform(chunk, controller) {
      let position = 0;
      while (position < chunk.length) {
        const newline = chunk.indexOf(NEWLINE, position);
        const end = newline === -1 ? chunk.length : newline;
        const line = chunk.subarray(position, end);
        if (line.length > 0 && !(line.length === 1 && line[0] === CARRIAGE_RETURN)) lineEmpty = false;
        sinceBlankLine += end - position;
        if (newline === -1) break;
        if (lineEmpty) sinceBlankLine = 0;
        else sinceBlankLine += 1;
        lineEmpty = true;
        position = newline + 1;
      }
      if (sinceBlankLine > maxEventBytes) {
        controller.error(new ResponseTooLargeError(`the response sent more than ${maxEventBytes} bytes in one piece; stopped reading`));
        return;
      }
      controller.enqueue(chunk);
    },
  });
}
