import type { RouterOutputs } from "@/server/api/root";

export type Insights = RouterOutputs["insights"]["get"];
