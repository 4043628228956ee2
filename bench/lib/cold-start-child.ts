// A user's cold start, in a process of its own (bench/lib/cold-start.ts runs it bundled):
// from the process starting to the first answer — loading the engine's modules, opening the
// library, and answering one question (which loads the embedding model and the NLP pipeline).
// With a delay, the engine warms up as the app's does (EngineOptions.warmUp) and the question comes
// that many milliseconds after the library is open, as a user typing it; `firstAnswerMs` is then
// what the user waits after asking. Prints one JSON line.
// Usage: node <bundle>/cold-start-child.js <dataDir> <modelRoot|""> <question> [<delay ms>]
export {};
const [dataDir, modelRoot, question, delayArg] = process.argv.slice(2);
if (dataDir === undefined || question === undefined) {
  console.error('usage: cold-start-child.ts <dataDir> <modelRoot|""> <question> [<delay ms>]');
  process.exit(2);
}
const delayMs = Number(delayArg ?? 0);
// performance.now() counts from the process's start (its time origin).
const started = performance.now();
const { createEngine } = await import("../../core/engine.ts");
const loaded = performance.now();
const engine = await createEngine({ dataDir, llm: null, warmUp: delayMs > 0, ...(modelRoot === undefined || modelRoot === "" ? {} : { modelRoot }) });
const opened = performance.now();
if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
const asked = performance.now();
const result = await engine.ask(question);
const answered = performance.now();
await engine.close();
console.log(
  JSON.stringify({
    beforeMainMs: Math.round(started),
    modulesMs: Math.round(loaded - started),
    openMs: Math.round(opened - loaded),
    firstAnswerMs: Math.round(answered - asked),
    totalMs: Math.round(answered),
    answered: result.sentences.length > 0,
  }),
);
