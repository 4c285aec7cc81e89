import { WorkflowEditor } from "@/components/workflows/workflow-editor";

const single = (value: string | string[] | undefined) => (typeof value === "string" && value !== "" ? value : undefined);

/**
 * A workflow's editor; for a new workflow `?from=<example>` starts from a bundled example and
 * `?language=<language>` sets the blank machine's language (the new-workflow form asks for it).
 */
export default async function WorkflowPage({ params, searchParams }: { params: Promise<{ name: string }>; searchParams: Promise<{ from?: string | string[]; language?: string | string[] }> }) {
  const { name } = await params;
  const { from, language } = await searchParams;
  // Keyed by the name: after a rename the editor starts afresh on the renamed workflow.
  return <WorkflowEditor key={name} name={decodeURIComponent(name)} example={single(from)} language={single(language)} />;
}
