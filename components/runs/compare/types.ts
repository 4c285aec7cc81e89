import type { RouterOutputs } from "@/server/api/root";

/** What run.compare returns: the UI sees the server only through the router's types. */
export type RunComparison = RouterOutputs["run"]["compare"];
export type ComparedRun = RunComparison["a"];
export type ComparedAttempt = RunComparison["attempts"][number];
export type ComparedSide = NonNullable<ComparedAttempt["a"]>;
