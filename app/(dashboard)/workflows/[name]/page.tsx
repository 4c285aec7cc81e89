import { WorkflowEditor } from "@/components/workflows/workflow-editor";

/** A workflow's editor; `?from=<example>` starts a new workflow from a bundled example. */
export default async function WorkflowPage({ params, searchParams }: { params: Promise<{ name: string }>; searchParams: Promise<{ from?: string | string[] }> }) {
  const { name } = await params;
  const { from } = await searchParams;
  return <WorkflowEditor name={decodeURIComponent(name)} example={typeof from === "string" && from !== "" ? from : undefined} />;
}
