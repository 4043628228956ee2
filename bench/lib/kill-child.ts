// The process killed by the crash-safety runs (bench/lib/kill-runs.ts): imports the given files
// into a data dir, printing one line per progress event and engine log line, so the parent can
// kill it with SIGKILL at a chosen point. Run: node bin/run-ts.mjs bench/lib/kill-child.ts
//   --data <dir> --models <modelRoot> <files…>      (import)
//   --data <dir> --models <modelRoot> --extract      (LLM triplet extraction, scripted model)
//   --data <dir> --models <modelRoot> --delete <name> (delete one imported document)
//   --data <dir> --models <modelRoot> --compare <nameA> <nameB> (a crosswalk with verdicts, scripted model)
import { parseArgs } from "node:util";
import { createEngine } from "../../core/engine.ts";
import { createScriptedLlm, scriptedVerdictLlm } from "./scripted-llm.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    data: { type: "string" },
    models: { type: "string" },
    extract: { type: "boolean", default: false },
    delete: { type: "string" },
    compare: { type: "boolean", default: false },
  },
});
if (values.data === undefined || values.models === undefined || (positionals.length === 0 && !values.extract && values.delete === undefined)) {
  process.stderr.write("usage: kill-child.ts --data <dir> --models <modelRoot> (<files…> | --extract | --delete <name> | --compare <nameA> <nameB>)\n");
  process.exit(2);
}

const say = (line: string): void => {
  process.stdout.write(`${line.replace(/\n/g, " ")}\n`);
};

say("starting");
const engine = await createEngine({
  dataDir: values.data,
  modelRoot: values.models,
  llm: values.extract ? createScriptedLlm() : values.compare ? scriptedVerdictLlm(40) : null,
  log: (m) => say(`log ${m}`),
});
say("opened");
const onProgress = (p: { status: string; step: string; current: number; total: number }): void => say(`progress ${p.status} ${p.step} ${p.current}/${p.total}`);
if (values.compare) {
  say("comparing");
  const result = await engine.compareDocuments(positionals[0] ?? "", positionals[1] ?? "", { k: 2, verdicts: true, onProgress });
  await engine.close();
  say(`done ${result.verdicts.pairs} pairs`);
} else if (values.delete !== undefined) {
  say("deleting");
  const result = await engine.deleteDocument(values.delete);
  await engine.close();
  say(`done ${result.deleted ? "deleted" : "not found"}`);
} else if (values.extract) {
  const summary = await engine.extractTriplets({ onProgress });
  await engine.close();
  say(`done ${summary.triplets} triplets`);
} else {
  const results = await engine.importFiles(positionals, { onProgress });
  await engine.close();
  say(`done ${JSON.stringify(results.map((r) => r.status))}`);
}
