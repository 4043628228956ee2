import type { Rule } from "eslint";
export declare function importProblem(fromRel: string, specifier: string): string | null;
export declare const importLayersRule: Rule.RuleModule;
export declare function layerNames(): string[];
