"use client";

import { createContext, useContext, type ReactNode } from "react";

/** The draft a step test runs: the workflow's name (for pinning earlier artifacts) and its document as edited, unsaved. */
export interface StepTestDraft {
  readonly workflow: string;
  readonly document: string;
}

const DraftContext = createContext<StepTestDraft | null>(null);

/** Makes the editor's current draft available to the step inspector's "Test this step". */
export function StepTestScope({ workflow, document, children }: StepTestDraft & { children: ReactNode }) {
  return <DraftContext.Provider value={{ workflow, document }}>{children}</DraftContext.Provider>;
}

/** The draft to test, or null outside an editor (then there is nothing to test against). */
export function useStepTestDraft(): StepTestDraft | null {
  return useContext(DraftContext);
}
