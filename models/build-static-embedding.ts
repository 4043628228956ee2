// Builds the default static embedding model (glove-static-100d) into a folder:
//   node bin/run-ts.mjs models/build-static-embedding.ts --out <dir> [--top-words N]
// The engine does the same on first use (ensureDefaultEmbedder); this entry point is for
// packaging the model ahead of time and for inspecting it.
import { parseArgs } from "node:util";
import { buildStaticEmbeddingModel } from "../core/embed/build-static-model.ts";

const { values } = parseArgs({
  options: {
    out: { type: "string" },
    "top-words": { type: "string" },
  },
});

if (values.out === undefined) {
  console.error("usage: build-static-embedding.ts --out <dir> [--top-words N]");
  process.exit(2);
}
const topWords = values["top-words"] === undefined ? undefined : Number(values["top-words"]);
if (topWords !== undefined && (!Number.isInteger(topWords) || topWords <= 0)) {
  console.error("--top-words must be a positive integer");
  process.exit(2);
}

const result = await buildStaticEmbeddingModel(values.out, topWords === undefined ? {} : { topWords });
console.log(JSON.stringify(result, null, 2));
