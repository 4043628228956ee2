import { useCallback, useState } from "react";

// The viewer opens a page fitted to the pane's width; a zoom the user picks for a document is
// kept for it (this browser profile), so stepping through an answer's citations or coming back
// later does not mean zooming in again each time. Other documents keep their own.

const STORAGE_PREFIX = "clausegraph.zoom.";
export const MIN_ZOOM = 1;
export const MAX_ZOOM = 4;

function stored(documentId: string): number {
  try {
    const value = Number(window.localStorage.getItem(`${STORAGE_PREFIX}${documentId}`));
    return Number.isFinite(value) && value >= MIN_ZOOM && value <= MAX_ZOOM ? value : MIN_ZOOM;
  } catch {
    return MIN_ZOOM;
  }
}

export function useDocumentZoom(documentId: string): [number, (next: (zoom: number) => number) => void] {
  const [state, setState] = useState(() => ({ documentId, zoom: stored(documentId) }));
  const zoom = state.documentId === documentId ? state.zoom : stored(documentId);
  const setZoom = useCallback(
    (next: (zoom: number) => number) => {
      setState((current) => {
        const from = current.documentId === documentId ? current.zoom : stored(documentId);
        const value = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, next(from)));
        try {
          if (value === MIN_ZOOM) window.localStorage.removeItem(`${STORAGE_PREFIX}${documentId}`);
          else window.localStorage.setItem(`${STORAGE_PREFIX}${documentId}`, String(value));
        } catch {
          // A profile that cannot store keeps the zoom for this visit only.
        }
        return { documentId, zoom: value };
      });
    },
    [documentId],
  );
  return [zoom, setZoom];
}
