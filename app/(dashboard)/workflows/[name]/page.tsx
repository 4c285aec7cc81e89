import { WorkflowEditor } from "@/components/workflows/workflow-editor";

export default async function WorkflowPage({ params }: { params: Promise<{ name: string }> }) {
  const { name } = await params;
  return <WorkflowEditor name={decodeURIComponent(name)} />;
}
