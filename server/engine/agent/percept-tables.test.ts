import { describePerceptTables } from "../testing/percept-table-scenarios";
import { InMemoryRunRepository } from "../testing/in-memory-run-repository";

describePerceptTables("the in-memory store", async () => ({ repository: new InMemoryRunRepository(), dispose: async () => {} }));
