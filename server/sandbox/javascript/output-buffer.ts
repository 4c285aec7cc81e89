/** Host side of worker/output-sink.mjs: the run's console output in a SharedArrayBuffer. */
const HEADER_BYTES = 4;

export function createOutputBuffer(limitBytes: number): SharedArrayBuffer {
  return new SharedArrayBuffer(HEADER_BYTES + limitBytes);
}

/** The output written so far; readable even after the worker was killed. */
export function readOutput(buffer: SharedArrayBuffer): string {
  const length = Atomics.load(new Int32Array(buffer, 0, 1), 0);
  // TextDecoder does not accept views of shared memory: copy the bytes first.
  return new TextDecoder().decode(new Uint8Array(buffer, HEADER_BYTES, length).slice());
}
