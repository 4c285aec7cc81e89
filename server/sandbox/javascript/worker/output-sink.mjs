/**
 * Console output of one run, written by the worker into a SharedArrayBuffer that the host
 * thread owns: if the worker has to be killed, the output up to that point is still there.
 * Layout: Int32 byte count, then up to `limitBytes` bytes of UTF-8.
 */
export const OUTPUT_HEADER_BYTES = 4;

export function createOutputSink(buffer) {
  const length = new Int32Array(buffer, 0, 1);
  const bytes = new Uint8Array(buffer, OUTPUT_HEADER_BYTES);
  const encoder = new TextEncoder();
  let exceeded = false;

  return {
    /** Appends text; false once the limit is exceeded (only whole characters that fit are kept). */
    write(text) {
      if (exceeded) return false;
      const used = Atomics.load(length, 0);
      const { read, written } = encoder.encodeInto(text, bytes.subarray(used));
      Atomics.store(length, 0, used + written);
      if (read < text.length) exceeded = true;
      return !exceeded;
    },
  };
}
