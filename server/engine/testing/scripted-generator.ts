import { renderBasicPrompt, renderPrompt } from "../domain/prompt-template";
import type { Generation, GenerationRequest, Generator } from "../ports/generator";

/**
 * Returns scripted contents in order and remembers every request and rendered prompt, so a test
 * can check what the model would have been asked. Running out of script is a test bug: it throws.
 */
export class ScriptedGenerator implements Generator {
  readonly requests: GenerationRequest[] = [];
  readonly prompts: string[] = [];
  readonly #script: string[];

  constructor(script: readonly string[]) {
    this.#script = [...script];
  }

  get calls(): number {
    return this.requests.length;
  }

  async generate(request: GenerationRequest): Promise<Generation> {
    const content = this.#script[this.requests.length];
    if (content === undefined) throw new Error(`ScriptedGenerator: no scripted reply for call ${this.requests.length + 1}`);
    const prompt = request.template ? renderPrompt(request.template, request.context) : renderBasicPrompt(request.context);
    this.requests.push(request);
    this.prompts.push(prompt);
    return { content, metadata: { generator: "scripted", prompt } };
  }
}
