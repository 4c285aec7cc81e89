import { readBoundedBody } from "../http/read-bounded-body";

/**
 * Bounds on one tRPC HTTP request, checked before tRPC reads it: how many calls a batch may hold
 * (each is a procedure run, so a batch of thousands is thousands of database queries) and how
 * large a body may be (the largest input, a 5 MiB cassette, with room for JSON escaping).
 */
export const MAX_CALLS_PER_BATCH = 10;
export const MAX_TRPC_BODY_BYTES = 12 * 1024 * 1024;

/** A tRPC-shaped error response, so the client shows the message. */
export function trpcErrorResponse(status: number, code: string, message: string): Response {
  return Response.json({ error: { json: { message, code: -32600, data: { code, httpStatus: status } } } }, { status });
}

/** The number of procedures a request names: `/api/trpc/a,b,c?batch=1` is three. */
export function callsIn(request: Request, endpoint: string): number {
  const { pathname } = new URL(request.url);
  const paths = pathname.slice(pathname.indexOf(endpoint) + endpoint.length).replace(/^\//, "");
  return paths === "" ? 0 : paths.split(",").length;
}

export function refuseOversizedBatch(request: Request, endpoint: string): Response | null {
  const calls = callsIn(request, endpoint);
  if (calls <= MAX_CALLS_PER_BATCH) return null;
  return trpcErrorResponse(400, "BAD_REQUEST", `A batch may hold at most ${MAX_CALLS_PER_BATCH} calls; this one has ${calls}`);
}

const tooLarge = () => trpcErrorResponse(413, "PAYLOAD_TOO_LARGE", `A request body may be at most ${MAX_TRPC_BODY_BYTES / (1024 * 1024)} MiB`);

/**
 * The request with its body read up to the limit (a new Request over the same signal), or a 413
 * response: a declared length over the limit is refused unread, an undeclared one when it passes it.
 */
export async function withBoundedBody(request: Request, maxBytes = MAX_TRPC_BODY_BYTES): Promise<Request | Response> {
  if (!request.body) return request;
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > maxBytes) return tooLarge();
  const body = await readBoundedBody(request.body, maxBytes);
  if (body === null) return tooLarge();
  return new Request(request.url, { method: request.method, headers: request.headers, body, signal: request.signal });
}
