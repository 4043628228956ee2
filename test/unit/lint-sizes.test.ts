import { describe, expect, it } from "vitest";
import { MAX_FILE_LINES, MAX_FUNCTION_LINES, sizeProblems } from "../../scripts/lint/sizes.mjs";

const body = (n: number): string => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join("\n");

describe("size check", () => {
  it("refuses a function over the limit without a reason, and takes one with it", () => {
    const long = `export function f(): void {\n${body(MAX_FUNCTION_LINES)}\n}\n`;
    expect(sizeProblems("core/x.ts", long)).toHaveLength(1);
    expect(sizeProblems("core/x.ts", `// Long function: one pass over the rules in order.\n/** Doc. */\n${long}`)).toEqual([]);
    expect(sizeProblems("core/x.ts", `export const g = (): void => {\n${body(MAX_FUNCTION_LINES)}\n};\n`)).toHaveLength(1);
  });

  it("refuses a file over the limit unless its first line says why", () => {
    const functions = Array.from({ length: 8 }, (_, k) => `export function f${k}(): void {\n${body(MAX_FILE_LINES / 8)}\n}`).join("\n");
    expect(sizeProblems("core/x.ts", functions).some((p) => p.includes("lines (at most"))).toBe(true);
    expect(sizeProblems("core/x.ts", `// Long file: one grammar read together.\n${functions}`)).toEqual([]);
  });
});
