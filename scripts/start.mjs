#!/usr/bin/env node
// `npm start`: the desktop app when an Electron runtime exists, otherwise the same UI served by the
// web host on 127.0.0.1 (machines where Electron's binary download is impossible, like our CI).
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { ELECTRON_OUT, HOST_OUT, RENDERER_OUT, ROOT, buildElectron, buildHost, buildRenderer } from "./build.mjs";

const require = createRequire(import.meta.url);
const args = process.argv.slice(2);

/** ELECTRON_PATH, else the binary the electron package installed (its require() throws if none). */
function findElectron() {
  const fromEnv = process.env.ELECTRON_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  try {
    const binary = require("electron");
    return typeof binary === "string" && existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (/\.(ts|tsx|css|html)$/.test(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** Missing, or older than any source that goes into it. */
function isStale(output, sourceDirs) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return sourceDirs.some((dir) => existsSync(dir) && newestMtime(dir) > built);
}

// The engine's native libraries (Kuzu, onnxruntime) allocate from many threads, and glibc spreads
// them over many arenas whose fragments it keeps: a long session's memory kept growing. Two arenas
// grow far less (docs/crash-safety.md); other C libraries ignore the variable, and a value the
// user set wins.
const ENGINE_ENV = { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2" };

function run(command, commandArgs) {
  const child = spawn(command, commandArgs, { cwd: ROOT, stdio: "inherit", env: ENGINE_ENV });
  const forward = (signal) => child.kill(signal);
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

async function main() {
  const electron = findElectron();
  const rendererSources = [path.join(ROOT, "renderer"), path.join(ROOT, "core/contract")];
  if (electron) {
    if (isStale(path.join(RENDERER_OUT, "index.html"), rendererSources)) await buildRenderer({ quiet: true });
    const electronSources = [path.join(ROOT, "electron"), path.join(ROOT, "core")];
    if (isStale(path.join(ELECTRON_OUT, "main.js"), electronSources)) await buildElectron();
    run(electron, [".", ...args]);
    return;
  }
  console.log("No Electron runtime is installed here (set ELECTRON_PATH to one); starting the ClauseGraph web host instead.");
  if (isStale(path.join(RENDERER_OUT, "index.html"), rendererSources)) await buildRenderer({ quiet: true });
  // Bundled, as the desktop app's engine is: tsx would compile core/ again at every start.
  if (isStale(path.join(HOST_OUT, "serve.js"), [path.join(ROOT, "core")])) await buildHost();
  run(process.execPath, [path.join(HOST_OUT, "serve.js"), ...args]);
}

main().catch((err) => {
  console.error(`clausegraph start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
