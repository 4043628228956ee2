import { useEffect, useRef, useState } from "react";
import type { PDFDocumentProxy, RenderTask } from "pdfjs-dist";
// partOfLine: the part of each line a cited sentence covers, shared with the engine's tests (highlight-geometry.ts).
import { partOfLine, type Section } from "../../../core/contract/contract.ts";

interface Props {
  pdf: PDFDocumentProxy;
  page: number;
  /** The section's lines: drawn with a soft highlight where they are printed. */
  spans: Section["spans"];
  /** A stretch of the text to show more strongly (a cited sentence, a triplet's evidence), offsets into Section.text. */
  emphasis: { start: number; end: number } | null;
  /** 1 fits the page to the pane's width; larger zooms in (the frame then scrolls). */
  zoom?: number;
}

interface Rect {
  key: string;
  left: number;
  top: number;
  width: number;
  height: number;
  strong: boolean;
}

/** One page on a canvas sized to the pane, with the section's lines highlighted over it. */
export function PdfPage({ pdf, page, spans, emphasis, zoom = 1 }: Props) {
  const frame = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(0);
  const [rects, setRects] = useState<Rect[]>([]);
  const [rendered, setRendered] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  // A primitive key: callers pass a fresh object each render, which must not redraw the page.
  const emphasisKey = emphasis === null ? "" : `${emphasis.start}-${emphasis.end}`;

  useEffect(() => {
    const element = frame.current;
    if (element === null) return;
    const observer = new ResizeObserver((entries) => {
      const w = Math.floor(entries[0]?.contentRect.width ?? 0);
      // Small changes (a scrollbar appearing) are not worth a re-render.
      setWidth((old) => (Math.abs(old - w) < 8 ? old : w));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const target = canvas.current;
    if (target === null || width <= 0) return;
    let task: RenderTask | null = null;
    let current = true;
    setRendered(false);
    void (async () => {
      try {
        const pdfPage = await pdf.getPage(page);
        if (!current) return;
        const base = pdfPage.getViewport({ scale: 1 });
        const viewport = pdfPage.getViewport({ scale: (width * zoom) / base.width });
        const ratio = window.devicePixelRatio || 1;
        target.width = Math.floor(viewport.width * ratio);
        target.height = Math.floor(viewport.height * ratio);
        target.style.width = `${Math.floor(viewport.width)}px`;
        target.style.height = `${Math.floor(viewport.height)}px`;
        task = pdfPage.render({ canvas: target, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] });
        await task.promise;
        if (!current) return;
        // Boxes are in PDF points from the page's top-left; pdf.js wants bottom-left user space.
        const [, , , top] = pdfPage.view;
        const onPage = spans.filter((s) => s.page === page);
        const toRect = (key: string, x: number, w: number, s: Section["spans"][number], strong: boolean): Rect => {
          const [x1, y1, x2, y2] = viewport.convertToViewportRectangle([x, (top ?? 0) - s.box.y - s.box.height, x + w, (top ?? 0) - s.box.y]);
          return { key, left: Math.min(x1, x2) - 2, top: Math.min(y1, y2) - 1, width: Math.abs(x2 - x1) + 4, height: Math.abs(y2 - y1) + 2, strong };
        };
        setRects(
          onPage.flatMap((s, i) => {
            const faint = toRect(`${i}-${s.start}`, s.box.x, s.box.width, s, false);
            if (emphasis === null || s.start >= emphasis.end || s.end <= emphasis.start) return [faint];
            // The section's line faintly, the cited sentence's part of it strongly.
            const part = partOfLine(s, Math.max(s.start, emphasis.start), Math.min(s.end, emphasis.end));
            return [faint, toRect(`${i}-${s.start}-strong`, part.x, part.width, s, true)];
          }),
        );
        setFailed(null);
        setRendered(true);
      } catch (err) {
        if (current && !(err instanceof Error && err.name === "RenderingCancelledException")) {
          setFailed(err instanceof Error ? err.message : String(err));
        }
      }
    })();
    return () => {
      current = false;
      task?.cancel();
    };
  }, [pdf, page, width, spans, emphasisKey, zoom]);

  // The cited sentence is scrolled into view once drawn (zoomed in, or low on a long page).
  useEffect(() => {
    if (!rendered) return;
    frame.current?.querySelector(".pdf-highlight.strong")?.scrollIntoView({ block: "center", inline: "nearest" });
  }, [rendered, rects]);

  return (
    <div ref={frame} className="pdf-frame">
      <div className="pdf-page" data-testid="pdf-page" data-page={page} data-rendered={rendered ? "true" : "false"}>
        <canvas ref={canvas} data-testid="pdf-canvas" aria-label={`Page ${page} of the original document`} role="img" />
        {rects.map((r) => (
          <span
            key={r.key}
            className={r.strong ? "pdf-highlight strong" : "pdf-highlight"}
            data-testid={r.strong ? "pdf-highlight-strong" : "pdf-highlight"}
            style={{ left: r.left, top: r.top, width: r.width, height: r.height }}
          />
        ))}
      </div>
      {failed !== null ? <p className="muted small">This page could not be drawn ({failed}); the text below is complete.</p> : null}
    </div>
  );
}
