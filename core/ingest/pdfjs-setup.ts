import { createRequire } from "node:module";
import path from "node:path";

// pdfjs needs its data folders (CMaps for CJK/Identity-H fonts, standard font metrics, wasm image
// decoders) as directory paths with a trailing slash; in Node it reads them with fs. They are
// resolved from the installed package so this works from the source tree and from a packaged app.

export interface PdfjsDataDirs {
  cMapUrl: string;
  standardFontDataUrl: string;
  wasmUrl: string;
}

export function pdfjsDataDirs(): PdfjsDataDirs {
  const require = createRequire(import.meta.url);
  const root = path.dirname(require.resolve("pdfjs-dist/package.json"));
  const dir = (name: string): string => `${path.join(root, name)}${path.sep}`;
  return { cMapUrl: dir("cmaps"), standardFontDataUrl: dir("standard_fonts"), wasmUrl: dir("wasm") };
}
