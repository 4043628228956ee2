import { describe, expect, it } from "vitest";
import { noticeRecipient } from "../../core/answer/compose/notice-recipient.ts";

// Whom a notice goes to, in a question and in a section heading (breach rules print one notice per recipient).

describe("noticeRecipient", () => {
  it.each([
    ["Within how many days must a covered entity notify individuals of a breach?", "individual"],
    ["Within what time must a covered entity notify the Secretary of a breach affecting 500 or more individuals?", "Secretary"],
    ["When must a controller notify the supervisory authority of a personal data breach?", "supervisory authority"],
    ["How quickly must a financial entity report a major ICT-related incident to the competent authority?", "competent authority"],
    ["Notification to the Secretary", "Secretary"],
    ["Notification to individuals", "individual"],
    ["Notification of a personal data breach to the supervisory authority", "supervisory authority"],
    ["Communication of a personal data breach to the data subject", "data subject"],
  ])("%s → %s", (text, recipient) => {
    expect(noticeRecipient(text)).toBe(recipient);
  });

  it("names no recipient where no notice goes to a party", () => {
    expect(noticeRecipient("What must a processor do when it becomes aware of a personal data breach?")).toBeNull();
    expect(noticeRecipient("Notification to the media")).toBeNull();
    expect(noticeRecipient("Security standards: General rules")).toBeNull();
    // "to" before a verb, not a party.
    expect(noticeRecipient("Which reports must be submitted to comply with the controller's duties?")).toBeNull();
  });
});
