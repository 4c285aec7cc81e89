import type { RouterOutputs } from "@/server/api/root";

/** What datasets.get returns: the UI sees the server only through the router's types. */
export type DatasetDetailView = RouterOutputs["datasets"]["get"];
export type DatasetCaseView = NonNullable<DatasetDetailView["version"]>["items"][number];
