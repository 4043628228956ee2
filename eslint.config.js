// Lint enforces the process boundaries of the design: the engine never touches Electron and the
// renderer never touches Node, so both can run in their own sandboxed process.
import tseslint from "typescript-eslint";
import { builtinModules } from "node:module";

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

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
    files: ["core/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [{ name: "electron", message: "core/ is pure Node: it must never import electron." }],
          patterns: [{ group: ["electron/*"], message: "core/ is pure Node: it must never import electron." }],
        },
      ],
    },
  },
  {
    files: ["core/contract/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "electron", message: "The contract is shared with the renderer: no electron." },
            ...nodeBuiltins.map((name) => ({ name, message: "The contract is shared with the renderer: no Node built-ins." })),
          ],
        },
      ],
    },
  },
  {
    files: ["renderer/**/*.ts", "renderer/**/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "electron", message: "The renderer is sandboxed: use the preload API." },
            ...nodeBuiltins.map((name) => ({ name, message: "The renderer runs in a browser sandbox: no Node built-ins." })),
          ],
          patterns: [
            {
              group: ["**/core/*", "!**/core/contract", "!**/core/contract/*"],
              message: "The renderer may only import the contract from core/.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs", "**/*.cjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
