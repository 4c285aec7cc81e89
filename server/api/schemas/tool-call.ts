import { z } from "zod";

const id = z.string().trim().min(1, "must not be empty").max(200, "is longer than any id");

// The result and the answer are checked by the service (one JSON object, 256 KiB, the wait's
// schema), which names the field at fault; zod only says they are there.
export const reportToolCallInput = z.object({ runId: id, callId: id, result: z.unknown() });
export const answerQuestionInput = z.object({ callId: id, answer: z.unknown() });
export const getQuestionInput = z.object({ callId: id });
