import type { RouterOutputs } from "@/server/api/root";

export type ConnectionResult = RouterOutputs["models"]["testConnection"];

/** The outcome of "Test connection", in the words the server chose. */
export function ConnectionResultNote({ result, error }: { result?: ConnectionResult; error?: string }) {
  if (error) {
    return (
      <p role="alert" data-testid="connection-result" className="text-sm text-red-700">
        {error}
      </p>
    );
  }
  if (!result) return null;
  return (
    <p role="status" data-testid="connection-result" data-ok={result.ok} className={`text-sm ${result.ok ? (result.defaultModelListed === false ? "text-amber-700" : "text-emerald-700") : "text-red-700"}`}>
      {result.message}
    </p>
  );
}
