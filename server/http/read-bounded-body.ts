/**
 * A request body read up to `maxBytes`, or null once it passes them (the rest is not read).
 * Bodies are hostile: a declared Content-Length may lie, so the count is of the bytes received.
 */
export async function readBoundedBody(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<ReturnType<typeof Buffer.concat> | null> {
  if (!body) return Buffer.concat([]);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
