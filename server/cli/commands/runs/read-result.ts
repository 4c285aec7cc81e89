import { MAX_REPORT_BODY_BYTES } from "../../../api/tool-report-http";
import { readBoundedText } from "../../read-bounded-text";
import { UsageError } from "../../usage-error";

/** What `--result`, `--result-file FILE` or `--result-file -` (standard input) hold, read within the bound. */
export type ResultSource = { readonly text: string } | { readonly file: string };

const tooLarge = (where: string) => new UsageError(`dualstate runs report: ${where} is larger than ${MAX_REPORT_BODY_BYTES / 1024} KiB (a result may be at most 256 KiB of JSON)`);

function readFileBounded(path: string): string {
  try {
    return readBoundedText(path, MAX_REPORT_BODY_BYTES);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EFBIG") throw tooLarge(`--result-file ${path}`);
    const reason = code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : code === "EISDIR" ? "is a directory" : (error as Error).message;
    throw new UsageError(`dualstate runs report: --result-file ${path}: ${reason}`);
  }
}

async function readStreamBounded(stream: AsyncIterable<Uint8Array | string>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk);
    size += bytes.byteLength;
    if (size > MAX_REPORT_BODY_BYTES) throw tooLarge("standard input");
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** "Unexpected token '}'" without the quoted text (which may be long): where it went wrong is enough. */
function jsonProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/, ".*" is not valid JSON$/s, "").slice(0, 200);
}

/** The result's JSON, parsed; a source that cannot be read or is not JSON is a usage error (exit 2). */
export async function readResult(source: ResultSource, stdin: AsyncIterable<Uint8Array | string>): Promise<unknown> {
  const where = "text" in source ? "--result" : source.file === "-" ? "standard input" : `--result-file ${source.file}`;
  const text = "text" in source ? source.text : source.file === "-" ? await readStreamBounded(stdin) : readFileBounded(source.file);
  if (Buffer.byteLength(text, "utf8") > MAX_REPORT_BODY_BYTES) throw tooLarge(where);
  if (text.trim() === "") throw new UsageError(`dualstate runs report: ${where} is empty; give the result as one JSON object`);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`dualstate runs report: ${where} is not valid JSON (${jsonProblem(error)})`);
  }
}
