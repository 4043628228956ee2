// Sizes a newcomer can read: in core/, no file over MAX_FILE_LINES lines and no function over
// MAX_FUNCTION_LINES, unless the file opens with "// Long file: <why>" or the function has
// "// Long function: <why>" in the lines just above it.
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const MAX_FILE_LINES = 600;
export const MAX_FUNCTION_LINES = 150;
/** How far above a function its reason may sit (a doc comment may come between). */
const REASON_REACH = 15;

/** Problems with one source file's sizes. */
export function sizeProblems(file, text) {
  const lines = text.split("\n");
  const problems = [];
  if (lines.length > MAX_FILE_LINES && !/^\/\/ Long file: \S/.test(lines[0] ?? "")) {
    problems.push(`${file}: ${lines.length} lines (at most ${MAX_FILE_LINES}, or a first line "// Long file: <why>")`);
  }
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isMethodDeclaration(node)) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const length = end - start + 1;
      const above = lines.slice(Math.max(0, start - REASON_REACH), start).join("\n");
      if (length > MAX_FUNCTION_LINES && !/\/\/ Long function: \S/.test(above)) {
        const name = node.name?.getText(source) ?? "(anonymous)";
        problems.push(`${file}:${start + 1}: ${name} is ${length} lines (at most ${MAX_FUNCTION_LINES}, or "// Long function: <why>" above it)`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return problems;
}

export function checkSizes(root, dirs = ["core"]) {
  const report = [];
  let files = 0;
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) {
        files++;
        report.push(...sizeProblems(path.relative(root, full).split(path.sep).join("/"), readFileSync(full, "utf8")));
      }
    }
  };
  for (const d of dirs) walk(path.join(root, d));
  return { files, report };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
  const result = checkSizes(root);
  if (result.report.length > 0) {
    console.error(result.report.join("\n"));
    process.exit(1);
  }
  console.log(`sizes: ${result.files} files within ${MAX_FILE_LINES} lines and functions within ${MAX_FUNCTION_LINES}, or with a reason`);
}
