export declare const MAX_FILE_LINES: number;
export declare const MAX_FUNCTION_LINES: number;
export declare function sizeProblems(file: string, text: string): string[];
export declare function checkSizes(root: string, dirs?: string[]): { files: number; report: string[] };
