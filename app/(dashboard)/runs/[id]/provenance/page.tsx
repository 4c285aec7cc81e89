import { ProvenanceView } from "@/components/provenance/provenance-view";

export default async function ProvenancePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ProvenanceView runId={id} />;
}
