import type { CrossReferenceRecord, TripletRecord } from "../model/graph-records.ts";

// The order the library returns citations and triplets in (citing or stated-in section, span, id),
// for readers that gather them from elsewhere (the read cache, the section files).

export function byReferenceOrder(a: CrossReferenceRecord, b: CrossReferenceRecord): number {
  return a.fromSectionId < b.fromSectionId ? -1 : a.fromSectionId > b.fromSectionId ? 1 : a.start - b.start || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export function byTripletOrder(a: TripletRecord, b: TripletRecord): number {
  return a.sectionId < b.sectionId ? -1 : a.sectionId > b.sectionId ? 1 : a.start - b.start || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
