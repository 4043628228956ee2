export declare const RULE_ADOPTED_AFTER: string;
export declare const MAX_SUBJECT: number;
export declare function messageProblems(message: string): string[];
export declare function checkCommitSubjects(root: string, since?: string): { checked: number; scope: string; report: string[] };
