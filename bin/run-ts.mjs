#!/usr/bin/env node
// Runs a TypeScript entry point (CLI, web host, benchmarks) straight from source through tsx, so a
// fresh clone needs no build step before `npx clausegraph …` or `npm run bench:*`.
import { register } from "tsx/esm/api";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [, , entry, ...rest] = process.argv;
if (!entry) {
  console.error("usage: run-ts.mjs <file.ts> [args…]");
  process.exit(2);
}
register();
process.argv = [process.argv[0], path.resolve(entry), ...rest];
await import(pathToFileURL(path.resolve(entry)).href);
