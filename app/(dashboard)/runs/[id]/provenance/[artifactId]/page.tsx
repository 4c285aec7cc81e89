import { ArtifactProvenanceView } from "@/components/provenance/artifact-provenance-view";

/** One artifact's provenance: what it came from and what came from it. */
export default async function ArtifactProvenancePage({ params }: { params: Promise<{ id: string; artifactId: string }> }) {
  const { id, artifactId } = await params;
  return <ArtifactProvenanceView runId={id} artifactId={decodeURIComponent(artifactId)} />;
}
