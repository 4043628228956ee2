// Types for the tests that read the layer table (scripts/ itself is plain JavaScript).
export interface Layer {
  name: string;
  paths: string[];
  allow: string[];
  noNode?: boolean;
  /** The one file other floors may import this floor through. */
  frontDoor?: string;
  note: string;
}
export declare const LAYERS: ReadonlyArray<Layer>;
export declare const UNRESTRICTED: string[];
export declare const PACKAGE_OWNERS: Array<{ name: string; owners: string[]; why: string }>;
export declare function layerOf(relativePath: string): Layer | null;
export declare function checkLayerTable(): string[];
export declare const APP_ROOTS: string[];
export declare function unplaced(relativePath: string): boolean;
