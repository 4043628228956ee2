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
    // Cytoscape with its layout is one ~560 kB library the first screen needs anyway (the graph
    // sits beside the chat); splitting it further would only add requests.
    chunkSizeWarningLimit: 600,
    // Libraries in their own chunks: they change less often than the app and are parsed in
    // parallel; the graph library alone is ~half of the code.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: "graph", test: /node_modules[\\/](cytoscape|cytoscape-fcose|cose-base|layout-base)[\\/]/ },
            { name: "zod", test: /node_modules[\\/]zod[\\/]/ },
          ],
        },
      },
    },
  },
  server: { host: "127.0.0.1", strictPort: true },
});
