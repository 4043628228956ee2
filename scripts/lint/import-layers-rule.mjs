// ESLint rule `clausegraph/import-layers`: every import of a file in the layer table (layers.mjs)
// must stay inside its own folder or reach a folder its layer allows. Relative specifiers are
// resolved to the file they name (as VS Code's code-import-patterns does), so a path that climbs
// out of core/ into electron/ or renderer/ is caught like a bare `electron`; bare specifiers are
// checked against the layer's Node rule and the packages only one module may import (kuzu).
import { builtinModules } from "node:module";
import path from "node:path";
import { LAYERS, PACKAGE_OWNERS, UNRESTRICTED, layerOf, unplaced } from "./layers.mjs";

const NODE_BUILTINS = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const BY_NAME = new Map(LAYERS.map((l) => [l.name, l]));

/** Project-relative, forward slashes. */
function relativeTo(root, file) {
  return path.relative(root, file).split(path.sep).join("/");
}

function packageName(specifier) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

/** The problem with importing `specifier` from `fromRel` (project-relative), or null. */
export function importProblem(fromRel, specifier) {
  if (unplaced(fromRel)) return `${fromRel} is in no floor of scripts/lint/layers.mjs: a place the table does not know may import nothing`;
  const layer = layerOf(fromRel);
  if (specifier.startsWith(".")) {
    const targetRel = path.posix.normalize(path.posix.join(path.posix.dirname(fromRel), specifier));
    const target = layerOf(targetRel);
    if (layer === null) return null;
    if (unplaced(targetRel)) return `${layer.name} may not import ${targetRel}: it is in no floor of scripts/lint/layers.mjs`;
    if (target === null) {
      if (targetRel.startsWith("../") || UNRESTRICTED.some((u) => targetRel.startsWith(u))) {
        return `${layer.name} (${fromRel}) may not import ${targetRel}: it is outside the application's layers`;
      }
      return null;
    }
    if (target === layer) return null;
    if (layer.allow.includes(target.name)) {
      // A feature with a front door is reached through it only: its other files are its own business.
      if (target.frontDoor !== undefined && targetRel !== target.frontDoor) {
        return `${layer.name} may import ${target.name} only through its front door ${target.frontDoor}, not ${targetRel}`;
      }
      return null;
    }
    const allowed = layer.allow.length === 0 ? "nothing outside itself" : layer.allow.join(", ");
    return `${layer.name} may not import ${target.name} (${targetRel}): ${layer.name} may import ${allowed} (scripts/lint/layers.mjs)`;
  }
  if (specifier.startsWith("/")) return layer === null ? null : `${layer.name} may not import by absolute path (${specifier})`;
  const name = packageName(specifier);
  const owned = PACKAGE_OWNERS.find((p) => p.name === name);
  if (owned && !owned.owners.includes(fromRel) && !UNRESTRICTED.some((u) => fromRel.startsWith(u))) {
    return `only ${owned.owners.join(", ")} may import ${name}: ${owned.why}`;
  }
  if (layer === null) return null;
  if (name === "electron" && layer.name !== "electron") {
    return `${layer.name} may not import electron: ${layer.name === "renderer" ? "the renderer is sandboxed and talks to the engine through the preload API" : "core/ is pure Node"}`;
  }
  if (layer.noNode === true && NODE_BUILTINS.has(specifier)) {
    return `${layer.name} may not import the Node built-in ${specifier}: it is compiled for the browser too`;
  }
  return null;
}

/** @type {import("eslint").Rule.RuleModule} */
export const importLayersRule = {
  meta: {
    type: "problem",
    docs: { description: "Each folder imports only the folders its layer allows (scripts/lint/layers.mjs)" },
    schema: [],
  },
  create(context) {
    const root = context.cwd;
    const fromRel = relativeTo(root, context.filename);
    if (fromRel.startsWith("../")) return {};
    const check = (node, source) => {
      if (source?.type !== "Literal" || typeof source.value !== "string") return;
      const problem = importProblem(fromRel, source.value);
      if (problem !== null) context.report({ node: source, message: problem });
    };
    return {
      // A file with no imports at all is still in a place the table must know.
      Program: (node) => {
        if (unplaced(fromRel)) context.report({ node, message: `${fromRel} is in no floor of scripts/lint/layers.mjs: give its place a floor there` });
      },
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
      TSImportType: (node) => check(node, node.argument?.type === "TSLiteralType" ? node.argument.literal : node.argument),
      CallExpression: (node) => {
        if (node.callee.type === "Identifier" && node.callee.name === "require") check(node, node.arguments[0]);
      },
    };
  },
};

export const layerNames = () => [...BY_NAME.keys()];
