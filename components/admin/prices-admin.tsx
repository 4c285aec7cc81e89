"use client";

import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Button } from "@/components/ui/button";
import { fieldClass } from "@/components/ui/select";
import { EmptyRows, Table, TableBody, TableHead, Td } from "@/components/ui/table";
import { checkPriceInput } from "@/server/usage/price-fields";

const FIELD_LABELS = { model: "Model", inputUsdPerMillion: "Input price", outputUsdPerMillion: "Output price" } as const;

/**
 * The price table: US dollars per million prompt (input) and completion (output) tokens, per
 * model name as the endpoint reports it. A change applies to calls made after it; each call
 * keeps the price it was made at.
 */
export function PricesAdmin() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const prices = useQuery(trpc.prices.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.prices.list.queryKey() });
  const save = useMutation(trpc.prices.save.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.prices.delete.mutationOptions({ onSuccess: refresh }));
  const [draft, setDraft] = useState({ model: "", input: "", output: "" });
  const [problems, setProblems] = useState<string[]>([]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const input = { model: draft.model.trim(), inputUsdPerMillion: number(draft.input), outputUsdPerMillion: number(draft.output) };
    const errors = checkPriceInput(input);
    setProblems(errors.map((error) => `${FIELD_LABELS[error.field as keyof typeof FIELD_LABELS] ?? error.field}: ${error.message}`));
    if (errors.length > 0) return;
    save.mutate(input, { onSuccess: () => setDraft({ model: "", input: "", output: "" }) });
  }

  const error = problems.length > 0 ? problems.join("; ") : (save.error?.message ?? remove.error?.message ?? null);
  return (
    <div className="space-y-8">
      <p className="max-w-3xl text-sm text-slate-600">
        What each model costs, in US dollars per million tokens. Every model call records its tokens and its cost at the price in force when it was made; changing a
        price here applies to later calls only. Calls of a model without a price count their tokens and cost nothing.
      </p>
      <form onSubmit={submit} noValidate className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4" aria-label="Set a model price">
        <label className="flex flex-col gap-1 text-sm font-medium">
          {FIELD_LABELS.model}
          <input name="model" value={draft.model} onChange={(event) => setDraft({ ...draft, model: event.target.value })} placeholder="gpt-4o-mini" className={fieldClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          {FIELD_LABELS.inputUsdPerMillion} ($ per million prompt tokens)
          <input name="inputUsdPerMillion" inputMode="decimal" value={draft.input} onChange={(event) => setDraft({ ...draft, input: event.target.value })} className={fieldClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          {FIELD_LABELS.outputUsdPerMillion} ($ per million completion tokens)
          <input name="outputUsdPerMillion" inputMode="decimal" value={draft.output} onChange={(event) => setDraft({ ...draft, output: event.target.value })} className={fieldClass} />
        </label>
        <Button type="submit" variant="primary" disabled={save.isPending}>
          Save price
        </Button>
        {error && (
          <p role="alert" className="w-full text-sm text-red-700" data-testid="price-error">
            {error}
          </p>
        )}
      </form>
      <Table label="Model prices">
        <TableHead columns={["Model", "Input $/M tokens", "Output $/M tokens", "Updated", ""]} />
        <TableBody>
          {prices.data?.map((price) => (
            <tr key={price.model} data-testid="price-row" data-model={price.model}>
              <Td className="font-mono">{price.model}</Td>
              <Td className="tabular-nums">{price.inputUsdPerMillion}</Td>
              <Td className="tabular-nums">{price.outputUsdPerMillion}</Td>
              <Td className="whitespace-nowrap text-slate-500">
                {new Date(price.updatedAt).toLocaleString()} by {price.updatedBy}
              </Td>
              <Td className="space-x-3 whitespace-nowrap">
                <Button variant="link" onClick={() => setDraft({ model: price.model, input: String(price.inputUsdPerMillion), output: String(price.outputUsdPerMillion) })}>
                  Edit {price.model}
                </Button>
                <Button variant="danger" onClick={() => remove.mutate({ model: price.model })}>
                  Delete {price.model}
                </Button>
              </Td>
            </tr>
          ))}
        </TableBody>
      </Table>
      {prices.data?.length === 0 && <EmptyRows>No prices yet: calls count their tokens and cost nothing until their model has one.</EmptyRows>}
    </div>
  );
}

/** An empty or unreadable field is NaN, which the check names. */
function number(text: string): number {
  return text.trim() === "" ? Number.NaN : Number(text);
}
