import type { CallIdentity, CallLedger } from "../ports/call-ledger";

export type CrashMode = "before-perform" | "after-perform";

/**
 * A CallLedger over another that dies like a killed worker at its `at`-th call: before the call
 * is performed, or after it was performed and before its result is recorded (the one window in
 * which a provider may see the same request twice). The death aborts the run, as a lost lease
 * does, so nothing above records it as a result.
 */
export function crashingCallLedger(inner: CallLedger, crash: { at: number; mode: CrashMode; run: AbortController }): CallLedger & { readonly calls: number } {
  let calls = 0;
  const die = () => {
    const error = new Error(`worker killed at call ${crash.at} (${crash.mode})`);
    crash.run.abort(error);
    throw error;
  };
  return {
    get calls() {
      return calls;
    },
    call: (key, request, perform) => {
      calls += 1;
      if (calls !== crash.at) return inner.call(key, request, perform);
      if (crash.mode === "before-perform") die();
      return inner.call(key, request, async (identity?: CallIdentity) => {
        await perform(identity);
        return die();
      });
    },
    note: (key, actor, text) => inner.note(key, actor, text),
  };
}
