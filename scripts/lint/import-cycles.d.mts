export declare function importGraph(root: string, dirs?: string[]): Map<string, string[]>;
export declare function cycles(graph: Map<string, string[]>): string[][];
export declare function folderOf(file: string): string;
export declare function folderGraph(graph: Map<string, string[]>): Map<string, string[]>;
export declare function checkImportCycles(root: string, dirs?: string[]): { files: number; fileCycles: string[][]; folderCycles: string[][]; report: string[] };
