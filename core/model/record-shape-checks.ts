import type { z } from "zod";
import type { DeleteResult, ImportResult, RepairResult, SearchResponse, SearchResult } from "./engine-types.ts";
import type { ErrorInfo } from "./errors.ts";
import type { TripletRecord } from "./graph-records.ts";
import type { SourceFormat } from "./ingest-types.ts";
import type { ProgressListener } from "./job.ts";
import type {
  errorInfoSchema,
  sourceFormatSchema,
  documentRecordSchema,
  importResultSchema,
  searchResultSchema,
  sectionSchema,
  deleteResultSchema,
  statsSchema,
  libraryHealthSchema,
  repairResultSchema,
  jobProgressSchema,
  tripletSchema,
  subgraphSchema,
  searchResponseSchema,
} from "./record-schemas.ts";
import type { Section } from "./section-types.ts";
import type { DocumentRecord, LibraryHealth, StoreStats } from "./store-records.ts";
import type { Subgraph } from "./subgraph-types.ts";

// The zod mirrors (record-schemas.ts) checked against the shared TypeScript types they validate,
// here and not beside the schemas: the schemas sit below engine-types.ts, which this file needs.
// Nothing imports this file; the type check compiles it.

// Compile-time only: each schema's output must be exactly the shared type, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type JobProgress = Parameters<ProgressListener>[0];
export const sameShapes: [
  Same<z.infer<typeof errorInfoSchema>, ErrorInfo>,
  Same<z.infer<typeof sourceFormatSchema>, SourceFormat>,
  Same<z.infer<typeof documentRecordSchema>, DocumentRecord>,
  Same<z.infer<typeof importResultSchema>, ImportResult>,
  Same<z.infer<typeof searchResultSchema>, SearchResult>,
  Same<z.infer<typeof sectionSchema>, Section>,
  Same<z.infer<typeof deleteResultSchema>, DeleteResult>,
  Same<z.infer<typeof statsSchema>, StoreStats>,
  Same<z.infer<typeof libraryHealthSchema>, LibraryHealth>,
  Same<z.infer<typeof repairResultSchema>, RepairResult>,
  Same<z.infer<typeof jobProgressSchema>, JobProgress>,
  Same<z.infer<typeof tripletSchema>, TripletRecord>,
  Same<z.infer<typeof subgraphSchema>, Subgraph>,
  Same<z.infer<typeof searchResponseSchema>, SearchResponse>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true];
