import type { Metadata } from "next";
import { ExperimentLive } from "@/components/experiments/experiment-live";

export const metadata: Metadata = { title: "Experiment" };

export default async function ExperimentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ExperimentLive id={id} />;
}
