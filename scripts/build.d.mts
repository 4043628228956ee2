// Types for the tests that reuse the build (scripts/ itself is plain JavaScript).
export declare const ROOT: string;
export declare const RENDERER_OUT: string;
export declare const ELECTRON_OUT: string;
export declare const HOST_OUT: string;
export declare const EXTERNAL: string[];
export declare function buildRenderer(options?: { quiet?: boolean }): Promise<void>;
export declare function buildElectron(options?: { outDir?: string }): Promise<void>;
export declare function buildNode(options: { entryPoints: Record<string, string>; outDir: string }): Promise<void>;
export declare function buildHost(options?: { outDir?: string }): Promise<void>;
