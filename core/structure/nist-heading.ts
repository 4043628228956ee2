import type { HeadingCandidate, HeadingDetector } from "./heading-types.ts";
import { cleanInlineTitle, parseOrdinal } from "./heading-types.ts";
import type { FlowLine } from "./flow.ts";

// NIST Special Publications: "CHAPTER THREE" (title on the next line), "APPENDIX A" or
// "Appendix A: Glossary", and SP 800-30 tasks ("TASK 1-1: Identify the purpose …"). Decimal
// section numbers are handled by the numbered detector, which NIST documents also enable.

const CHAPTER = /^CHAPTER\s+(ONE|TWO|THREE|FOUR|FIVE|SIX|SEVEN|EIGHT|NINE|TEN|\d{1,2})(?:\s*[:.–—-]\s*(.+)|\s+([A-Z][A-Z ,&-]+))?$/;
const APPENDIX = /^(?:APPENDIX|Appendix)\s+([A-Z])(?:\s*[:.–—-]\s*(.+)|\s+([A-Z][A-Z ,&-]+))?$/;
const TASK = /^TASK\s+(\d{1,2})-(\d{1,2}):?\s*(.*)$/i;

export const NIST_RANK = { chapter: 1, appendix: 1, task: 30 } as const;

function chapter(f: FlowLine): HeadingCandidate | undefined {
  const m = CHAPTER.exec(f.text);
  if (m === null) return undefined;
  const n = parseOrdinal(m[1] ?? "");
  return {
    kind: "chapter",
    label: `Chapter ${n}`,
    rank: NIST_RANK.chapter,
    inlineTitle: cleanInlineTitle(m[2] ?? m[3] ?? ""),
    titleMode: "next-lines",
    group: "nist-chapter",
    order: [n],
    sequence: "increasing",
  };
}

function appendix(f: FlowLine): HeadingCandidate | undefined {
  const m = APPENDIX.exec(f.text);
  if (m === null) return undefined;
  const letter = m[1] ?? "A";
  return {
    kind: "appendix",
    label: `Appendix ${letter}`,
    rank: NIST_RANK.appendix,
    inlineTitle: cleanInlineTitle(m[2] ?? m[3] ?? ""),
    titleMode: "next-lines",
    group: "nist-appendix",
    order: [letter.charCodeAt(0) - 64],
    sequence: "increasing",
  };
}

function task(f: FlowLine): HeadingCandidate | undefined {
  const m = TASK.exec(f.text);
  if (m === null || (m[3] ?? "").length === 0) return undefined;
  return {
    kind: "section",
    label: `Task ${m[1]}-${m[2]}`,
    rank: NIST_RANK.task,
    inlineTitle: "",
    titleMode: "run-in",
    group: "nist-task",
    order: [Number(m[1]), Number(m[2])],
    sequence: "increasing",
  };
}

export const nistDetector: HeadingDetector = {
  family: "nist",
  detect(line) {
    return chapter(line) ?? appendix(line) ?? task(line);
  },
};
