import react from "@vitejs/plugin-react";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

// The renderer is loaded from file:// in Electron and from the web host's root: relative asset
// URLs work for both. No inline script or style may be emitted (the CSP forbids them).
const root = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: path.join(root, "renderer"),
  base: "./",
  plugins: [react()],
  build: {
    outDir: path.join(root, "dist/renderer"),
    emptyOutDir: true,
    target: "es2022",
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
  },
  server: { host: "127.0.0.1", strictPort: true },
});
