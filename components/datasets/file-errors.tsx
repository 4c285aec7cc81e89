import type { DatasetFileError } from "@/server/datasets/types";
import { Table, TableBody, TableHead, Td } from "@/components/ui/table";

/** A refused file's mistakes, one row each: the line (or "file"), the field, what is wrong. */
export function FileErrors({ fileName, errors }: { fileName: string; errors: readonly DatasetFileError[] }) {
  return (
    <div role="alert" className="space-y-2" data-testid="upload-errors">
      <p className="text-sm font-medium text-red-700">
        {fileName} was not stored: {errors.length === 1 ? "1 problem" : `${errors.length} problems`} to fix.
      </p>
      <Table label="Problems in the file">
        <TableHead columns={["Line", "Field", "Problem"]} />
        <TableBody>
          {errors.map((error, index) => (
            <tr key={index} data-testid="upload-error">
              <Td className="tabular-nums">{error.line === 0 ? "file" : `line ${error.line}`}</Td>
              <Td className="font-mono text-xs">{error.field}</Td>
              <Td>{error.message}</Td>
            </tr>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
