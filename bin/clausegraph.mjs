#!/usr/bin/env node
// `npx clausegraph …`: loads the TypeScript CLI through tsx (no build step needed after `npm ci`).
import { register } from "tsx/esm/api";

register();
// Owner-only files for everything this process creates (Kuzu's included): see core/files/private-files.ts.
const { restrictUmask } = await import(new URL("../core/files/private-files.ts", import.meta.url).href);
restrictUmask();
const { main } = await import(new URL("../core/cli/main.ts", import.meta.url).href);
process.exitCode = await main(process.argv.slice(2));
