import { partyTypeOfName } from "../../extract/party-types.ts";
import { questionParties } from "../question/question-parties.ts";

// Whom a notice goes to: "notify individuals of a breach", "Notification to the Secretary",
// "Communication of a personal data breach to the data subject". Breach and incident rules print
// one notice per recipient in sections of the same words, so a sentence of the section on notifying
// the Secretary matches "Within how many days must a covered entity notify individuals …?" as well
// as the one on notifying individuals does, and better when it repeats more of the question.

/** A notice, a report or a communication: the words a recipient follows ("tell", "warn": an auditor's). */
const NOTICE = /\b(?:notif|inform|report|communicat|submi|disclos|tell|warn)/i;
/** The words right after which a recipient is named ("notify the Secretary", "… to the data subject"). */
const BEFORE_RECIPIENT = /\b(?:notify|notifies|notifying|inform|informs|informing|tell|tells|telling|warn|warns|warning|to)\s+/gi;
/** What may stand between those words and the party's name: "inform their clients", "tell the affected customers". */
const BEFORE_NAME = /^(?:(?:the|each|any|all|affected|relevant|concerned|a|an|its|their|our|your|his|her)\s+)+/i;
/** Words read after each: a party's name is at most a few words long ("critical ICT third-party service provider"). */
const WINDOW_WORDS = 4;

/**
 * A notice in the passive ("affected individuals must be notified", "when must the authority be
 * informed?"): its recipient is the party named just before it.
 */
const PASSIVE_NOTICE = /\b(?:be|being|been|is|are|get|gets)\s+(?:notified|informed|told|warned|alerted|contacted)\b/gi;
/** Words read before a passive notice for its recipient ("affected individuals must"). */
const PASSIVE_WINDOW_WORDS = 5;

/** The canonical party (question-parties.ts) a notice in `text` is addressed to, or null when it names none. */
export function noticeRecipient(text: string): string | null {
  if (!NOTICE.test(text)) return null;
  for (const m of text.matchAll(PASSIVE_NOTICE)) {
    const before = text.slice(0, m.index).trim().split(/\s+/).slice(-PASSIVE_WINDOW_WORDS).join(" ");
    const party = questionParties(before).at(-1);
    if (party !== undefined) return party;
  }
  for (const m of text.matchAll(BEFORE_RECIPIENT)) {
    const after = text.slice(m.index + m[0].length);
    const window = after.replace(BEFORE_NAME, "").split(/\s+/).slice(0, WINDOW_WORDS).join(" ");
    // Only a party named right there: "to comply with the controller's …" names no recipient.
    const party = questionParties(window)[0];
    if (party !== undefined && window.toLowerCase().startsWith(party.toLowerCase().slice(0, 4))) return party;
  }
  return null;
}

/**
 * Whether two recipients are one: the same party, or parties of the same kind (party-types.ts), as
 * an auditor's "customers" are a rule's "clients" and HIPAA's individuals are data subjects.
 */
export function sameRecipient(a: string, b: string): boolean {
  if (a === b) return true;
  const type = partyTypeOfName(a);
  return type !== null && type === partyTypeOfName(b);
}
