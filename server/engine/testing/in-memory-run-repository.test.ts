import { describeRunRepositoryConformance } from "./run-repository-conformance";
import { InMemoryRunRepository } from "./in-memory-run-repository";

describeRunRepositoryConformance("in-memory", async () => ({ repository: new InMemoryRunRepository(), dispose: async () => {} }));
