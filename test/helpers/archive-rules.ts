// Two short articles and the question they answer: enough for retrieval and a cited answer, for
// the tests of how a written answer is controlled (caps, Stop, the model's name).

export const ARCHIVE_RULES = `Article 1
Scope
These rules apply to operators of archives.

Article 2
Reporting
Operators shall report breaches to the authority within 72 hours.
`;

export const ARCHIVE_QUESTION = "When must operators report breaches?";
