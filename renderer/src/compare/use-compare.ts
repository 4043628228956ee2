import { useCallback, useEffect, useRef, useState } from "react";
import type {
  ClauseGraphApi,
  ComparisonSummary,
  Crosswalk,
  CrosswalkExportFormat,
  CrosswalkMatch,
  CrosswalkRow,
  ErrorInfo,
  JobProgressEvent,
  PairDetail,
} from "../../../core/contract/contract.ts";
import { downloadFile } from "../chat/download-file.ts";

// The Compare view's state: the stored comparisons, the one open as a table, a run in progress
// (its job id is ours, so its progress events and its Cancel are matched by it), and the pair
// opened side by side.

export interface CompareRequest {
  documentA: string;
  /** null: the whole library. */
  documentB: string | null;
  k: number;
  verdicts: boolean;
  /** Recitals, introductions and appendices aligned too (the engine aligns operative provisions by default). */
  allProvisions: boolean;
}

export interface RunState {
  jobId: string;
  request: CompareRequest;
  progress: JobProgressEvent | null;
  cancelling: boolean;
}

export interface OpenPair {
  row: CrosswalkRow;
  match: CrosswalkMatch;
  detail: PairDetail | null;
  error: ErrorInfo | null;
}

export interface CompareState {
  comparisons: ComparisonSummary[];
  crosswalk: Crosswalk | null;
  running: RunState | null;
  error: ErrorInfo | null;
  pair: OpenPair | null;
  run(request: CompareRequest): Promise<void>;
  cancel(): void;
  open(id: string): Promise<void>;
  remove(id: string): Promise<void>;
  openPair(row: CrosswalkRow, match: CrosswalkMatch): Promise<PairDetail | null>;
  closePair(): void;
  exportAs(format: CrosswalkExportFormat): Promise<void>;
  refresh(): Promise<void>;
}

/** Verdicts between two reads of the table while a run is under way. */
const LIVE_EVERY = 20;

let jobCounter = 0;
const nextJobId = (): string => `compare-${Date.now().toString(36)}-${++jobCounter}`;

export function useCompare(api: ClauseGraphApi): CompareState {
  const [comparisons, setComparisons] = useState<ComparisonSummary[]>([]);
  const [crosswalk, setCrosswalk] = useState<Crosswalk | null>(null);
  const [running, setRunning] = useState<RunState | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [pair, setPair] = useState<OpenPair | null>(null);
  const runningRef = useRef<RunState | null>(null);
  runningRef.current = running;
  const pairRef = useRef<OpenPair | null>(null);
  pairRef.current = pair;

  // While the model judges the pairs the crosswalk is already stored: it is shown, and read again
  // as verdicts are written (the engine writes them in batches).
  const liveRef = useRef<(id: string) => void>(() => {});
  useEffect(
    () =>
      api.onJobProgress((progress) => {
        const current = runningRef.current;
        if (current === null || progress.jobId !== current.jobId) return;
        setRunning((r) => (r === null || r.jobId !== progress.jobId ? r : { ...r, progress }));
        if (progress.step === "verdicts" && progress.status === "running" && (progress.current === 0 || progress.current % LIVE_EVERY === 0)) {
          liveRef.current(`${current.request.documentA}~${current.request.documentB ?? "library"}`);
        }
      }),
    [api],
  );

  const refresh = useCallback(async () => {
    const listed = await api.listComparisons({});
    if (listed.ok) setComparisons(listed.value);
    else setError(listed.error);
  }, [api]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const open = useCallback(
    async (id: string) => {
      setPair(null);
      const result = await api.getComparison({ id });
      if (result.ok) {
        setCrosswalk(result.value);
        setError(null);
      } else setError(result.error);
    },
    [api],
  );

  liveRef.current = (id: string) => {
    if (pairRef.current !== null) return;
    void api.getComparison({ id }).then((result) => {
      if (result.ok && pairRef.current === null) setCrosswalk(result.value);
    });
  };

  const run = useCallback(
    async (request: CompareRequest) => {
      const jobId = nextJobId();
      setRunning({ jobId, request, progress: null, cancelling: false });
      setError(null);
      setPair(null);
      setCrosswalk(null);
      const result = await api.compareDocuments({
        documentA: request.documentA,
        documentB: request.documentB,
        k: request.k,
        verdicts: request.verdicts,
        ...(request.allProvisions ? { provisions: "all" as const } : {}),
        jobId,
      });
      setRunning(null);
      await refresh();
      if (result.ok) await open(result.value.comparison.id);
      else {
        setError(result.error);
        // A cancel during the verdicts leaves a stored comparison ("partial"): show what it holds.
        const id = `${request.documentA}~${request.documentB ?? "library"}`;
        const stored = await api.getComparison({ id });
        if (stored.ok) setCrosswalk(stored.value);
      }
    },
    [api, open, refresh],
  );

  const cancel = useCallback(() => {
    const current = runningRef.current;
    if (current === null) return;
    setRunning({ ...current, cancelling: true });
    void api.cancelJob({ jobId: current.jobId });
  }, [api]);

  const remove = useCallback(
    async (id: string) => {
      const result = await api.deleteComparison({ id });
      if (!result.ok) setError(result.error);
      if (crosswalk?.comparison.id === id) {
        setCrosswalk(null);
        setPair(null);
      }
      await refresh();
    },
    [api, crosswalk, refresh],
  );

  const openPair = useCallback(
    async (row: CrosswalkRow, match: CrosswalkMatch) => {
      if (crosswalk === null) return null;
      setPair({ row, match, detail: null, error: null });
      const result = await api.getComparisonPair({ id: crosswalk.comparison.id, aSectionId: row.aSectionId, bSectionId: match.bSectionId });
      setPair((p) => (p === null || p.match !== match ? p : { ...p, detail: result.ok ? result.value : null, error: result.ok ? null : result.error }));
      return result.ok ? result.value : null;
    },
    [api, crosswalk],
  );

  const exportAs = useCallback(
    async (format: CrosswalkExportFormat) => {
      if (crosswalk === null) return;
      const result = await api.exportComparison({ id: crosswalk.comparison.id, format });
      if (result.ok) downloadFile(result.value);
      else setError(result.error);
    },
    [api, crosswalk],
  );

  return { comparisons, crosswalk, running, error, pair, run, cancel, open, remove, openPair, closePair: () => setPair(null), exportAs, refresh };
}
