/** What the end-to-end tests' fake model answers to every request (e2e/support/fake-model-server.ts). */
export const FAKE_MODEL_REPLY = [
  "```python",
  "def add(a, b):",
  '    """Adds two numbers, streamed token by token by the fake model."""',
  "    return a + b",
  "```",
].join("\n");
