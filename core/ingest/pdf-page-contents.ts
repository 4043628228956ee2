import type { RawPdf } from "./pdf-raw-objects.ts";

// The page tree walked on the raw objects: for each page in order, the object numbers of its
// content streams. The pre-scan needs it to add up a page's streams, to count a stream shared by
// many pages once per page (thousands of pages drawing one stream held pdf.js for many minutes), and to
// name the page in the error.

const REF = /(\d+)\s+\d+\s+R/g;
/** Real page trees are a few levels deep; pdf.js itself gives up on cycles, we on depth. */
const MAX_TREE_DEPTH = 64;

function refs(text: string): number[] {
  return [...text.matchAll(REF)].map((m) => Number(m[1]));
}

/** The refs of an array value `/Key [ … ]`, or of the array object `/Key N 0 R` points to. */
function arrayRefs(pdf: RawPdf, text: string, key: string): number[] | null {
  const direct = new RegExp(`/${key}\\s*\\[([^\\]]*)\\]`).exec(text)?.[1];
  if (direct !== undefined) return refs(direct);
  const ref = new RegExp(`/${key}\\s+(\\d+)\\s+\\d+\\s+R`).exec(text)?.[1];
  if (ref === undefined) return null;
  const target = pdf.objects.get(Number(ref));
  if (target === undefined) return [];
  if (target.stream !== undefined) return [target.num];
  const inner = /^\s*\[([^\]]*)\]/.exec(target.text)?.[1];
  return inner === undefined ? [] : refs(inner);
}

/** Content stream object numbers per page, in page order; null when the page tree cannot be found. */
export function pageContents(pdf: RawPdf, maxPages: number): number[][] | null {
  if (pdf.root === null) return null;
  const pagesRef = /\/Pages\s+(\d+)\s+\d+\s+R/.exec(pdf.objects.get(pdf.root)?.text ?? "")?.[1];
  if (pagesRef === undefined) return null;
  const pages: number[][] = [];
  const visited = new Set<number>();
  const walk = (num: number, depth: number): void => {
    const node = pdf.objects.get(num);
    if (node === undefined || visited.has(num) || depth > MAX_TREE_DEPTH || pages.length >= maxPages) return;
    visited.add(num);
    const kids = arrayRefs(pdf, node.text, "Kids");
    if (kids !== null) {
      for (const kid of kids) walk(kid, depth + 1);
    } else {
      pages.push(arrayRefs(pdf, node.text, "Contents") ?? []);
    }
  };
  walk(Number(pagesRef), 0);
  return pages.length > 0 ? pages : null;
}
