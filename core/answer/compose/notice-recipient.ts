import { questionParties } from "../question/question-parties.ts";

// Whom a notice goes to: "notify individuals of a breach", "Notification to the Secretary",
// "Communication of a personal data breach to the data subject". Breach and incident rules print
// one notice per recipient in sections of the same words, so a sentence of the section on notifying
// the Secretary matches "Within how many days must a covered entity notify individuals …?" as well
// as the one on notifying individuals does, and better when it repeats more of the question.

/** A notice, a report or a communication: the words a recipient follows. */
const NOTICE = /\b(?:notif|inform|report|communicat|submi|disclos)/i;
/** The words right after which a recipient is named ("notify the Secretary", "… to the data subject"). */
const BEFORE_RECIPIENT = /\b(?:notify|notifies|notifying|inform|informs|informing|to)\s+/gi;
/** Words read after each: a party's name is at most a few words long ("critical ICT third-party service provider"). */
const WINDOW_WORDS = 4;

/** The canonical party (question-parties.ts) a notice in `text` is addressed to, or null when it names none. */
export function noticeRecipient(text: string): string | null {
  if (!NOTICE.test(text)) return null;
  for (const m of text.matchAll(BEFORE_RECIPIENT)) {
    const after = text.slice(m.index + m[0].length);
    const window = after
      .replace(/^(?:the|each|any|all|affected|relevant|a|an)\s+/i, "")
      .split(/\s+/)
      .slice(0, WINDOW_WORDS)
      .join(" ");
    // Only a party named right there: "to comply with the controller's …" names no recipient.
    const party = questionParties(window)[0];
    if (party !== undefined && window.toLowerCase().startsWith(party.toLowerCase().slice(0, 4))) return party;
  }
  return null;
}
