// Lint enforces the design's boundaries: the engine never touches Electron, the renderer never
// touches Node, and each folder of core/ imports only the floors below it
// (scripts/lint/layers.mjs: the table; scripts/lint/import-layers-rule.mjs: the rule).
import tseslint from "typescript-eslint";
import { importLayersRule } from "./scripts/lint/import-layers-rule.mjs";

export default tseslint.config(
  {
    ignores: ["node_modules/**", "dist/**", ".tsbuild/**", "data/**", "test-results/**", "bench-results/**", "scratch/**"],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    // Each folder imports only what its layer allows, relative paths resolved (scripts/lint/layers.mjs).
    files: ["**/*.ts", "**/*.tsx", "**/*.js", "**/*.mjs"],
    plugins: { clausegraph: { rules: { "import-layers": importLayersRule } } },
    rules: { "clausegraph/import-layers": "error" },
  },
  {
    files: ["**/*.js", "**/*.mjs", "**/*.cjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
