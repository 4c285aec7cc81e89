/** A run forked at an attempt: the side it is, and the edit it was generated from. */
export interface ForkPointNote {
  readonly side: "A" | "B";
  readonly edit: { readonly feedback: string | null; readonly prompt: string | null; readonly forkedBy: string | null };
}

type Side = { readonly id: string; readonly forkedFrom: ({ readonly runId: string; readonly attemptKey: string } & ForkPointNote["edit"]) | null };

/** The side that was forked from the other run at the attempt `key`, if one was. Pure. */
export function forkPointAt(key: string, runs: { readonly a: Side; readonly b: Side }): ForkPointNote | undefined {
  if (runs.b.forkedFrom?.runId === runs.a.id && runs.b.forkedFrom.attemptKey === key) return { side: "B", edit: runs.b.forkedFrom };
  if (runs.a.forkedFrom?.runId === runs.b.id && runs.a.forkedFrom.attemptKey === key) return { side: "A", edit: runs.a.forkedFrom };
  return undefined;
}
