"use client";

import { useEffect, useRef } from "react";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { yaml } from "@codemirror/lang-yaml";
import { bracketMatching, defaultHighlightStyle, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { lintGutter, lintKeymap, setDiagnostics } from "@codemirror/lint";
import { EditorSelection, EditorState } from "@codemirror/state";
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from "@codemirror/view";
import type { DocumentProblem } from "./document-verdict";
import { findingsToDiagnostics, offsetOf } from "./yaml-diagnostics";

/** A place to move the cursor to; `request` changes on every click, so the same line can be asked for twice. */
export interface GoToPlace {
  readonly line: number;
  readonly column?: number;
  readonly request: number;
}

export interface YamlEditorProps {
  readonly value: string;
  readonly onChange: (value: string) => void;
  /** The id of the element that labels the editor (its text box gets aria-labelledby). */
  readonly labelledBy: string;
  /** The problems of the last check of exactly this text; marked in the gutter and under the text. */
  readonly problems: readonly DocumentProblem[];
  /** That check's warnings; marked the same way with the warning severity (amber, not red). */
  readonly warnings: readonly DocumentProblem[];
  readonly goTo: GoToPlace | null;
}

const theme = EditorView.theme({
  "&": { height: "520px", fontSize: "12px", border: "1px solid rgb(203 213 225)", borderRadius: "0.375rem", backgroundColor: "white" },
  "&.cm-focused": { outline: "2px solid rgb(15 23 42)" },
  ".cm-scroller": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace", lineHeight: "1.25rem" },
});

/**
 * The YAML tab's editor (CodeMirror 6): highlighting, line numbers, the check's problems and
 * warnings in the gutter, and its own undo while typing. Loaded on the YAML tab only (next/dynamic in
 * workflow-editor.tsx). Its styles are injected as style elements, which the page's policy allows
 * (style-src 'unsafe-inline', server/api/security-headers.ts).
 */
export default function YamlEditor({ value, onChange, labelledBy, problems, warnings, goTo }: YamlEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef({ value, onChange, labelledBy });
  useEffect(() => {
    latest.current = { value, onChange, labelledBy };
  });

  useEffect(() => {
    const created = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: latest.current.value,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          lintGutter(),
          history(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          highlightActiveLine(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          yaml(),
          // Tab is left to move focus out of the editor, so the page stays usable with a keyboard.
          keymap.of([...defaultKeymap, ...historyKeymap, ...lintKeymap]),
          EditorView.contentAttributes.of({ "aria-labelledby": latest.current.labelledBy, "aria-multiline": "true" }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange(update.state.doc.toString());
          }),
          theme,
        ],
      }),
    });
    view.current = created;
    return () => {
      created.destroy();
      view.current = null;
    };
  }, []);

  // A change from outside (the designer tab, undo, an import) replaces the text.
  useEffect(() => {
    const editor = view.current;
    if (!editor || editor.state.doc.toString() === value) return;
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    const editor = view.current;
    if (editor) editor.dispatch(setDiagnostics(editor.state, findingsToDiagnostics(editor.state.doc, problems, warnings)));
  }, [problems, warnings]);

  useEffect(() => {
    const editor = view.current;
    if (!editor || !goTo) return;
    const at = offsetOf(editor.state.doc, goTo.line, goTo.column);
    editor.dispatch({ selection: EditorSelection.cursor(at), effects: EditorView.scrollIntoView(at, { y: "center" }) });
    editor.focus();
  }, [goTo]);

  return <div ref={host} data-testid="yaml-editor" />;
}
