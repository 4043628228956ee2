import { isDefinitionQuestion } from "../../retrieve/term-stage.ts";
import type { AnswerType, YesNoModality } from "../../model/question-analysis-types.ts";
import { splitSentences } from "../../structure/sentences.ts";

// What a question asks for, from its wording alone (English and Italian): a time limit, a
// frequency, an amount, a party, a definition, a yes/no with its condition, what is permitted or
// prohibited, a list of requirements, a procedure, the date from which a rule applies, or its
// scope. Ordered rules, first match wins; the later matches are reported too ("How quickly must …
// and to whom?" is a deadline that also asks for a party). test/unit/question-analysis.test.ts
// holds the table of real auditor questions these rules are held to.

export type { AnswerType, YesNoModality } from "../../model/question-analysis-types.ts";

/** Verbs whose time limit a "when must …" question asks for; other "when must" questions ask when a rule applies (scope). */
const ACT_VERBS = String.raw`(?:notify|report|submit|inform|tell|alert|communicate|respond|reply|provide|file|send|deliver|publish|pay|complete|return|correct|restore|retain|keep|store|delete|erase|destroy|update|review|renew|notif\w*|performed|done|carried out|conducted|installed|implemented|tested|scanned|made|issued|sent|filed|submitted)`;

const RULES: ReadonlyArray<readonly [AnswerType, readonly RegExp[]]> = [
  // A question opening with "who" asks for a party whatever modal follows ("Who can approve
  // alternative methods of compliance?" is not about a permission).
  ["party", [/^(?:who|whom|chi)\b/, /^(?:to|by|from|a|da|di) (?:whom|chi)\b/]],
  // What an instrument covers is what it applies to ("Which jets does the proposed directive cover?"),
  // before the rule below reads "what does X cover?" as the list of what X requires.
  [
    "scope",
    [
      /\b(?:which|what|who)\b[^?]*\b(?:does|do|will) (?:the |this |that )?(?:[\w'’-]+ ){0,4}(?:regulation|directive|law|rule|act|standard|guidance|code|order|ad|framework) (?:actually |really |even )?cover\b/,
    ],
  ],
  // "What does X require / include / contain / identify?" asks for the list of requirements, whatever
  // nouns the X names ("the security incident procedures standard", "the scope of a risk assessment").
  [
    "requirements",
    [
      /^(?:what|which)\b[^?]*\b(?:does|do|must|should|shall)\b[^?]*\b(?:require|include|contain|identify|specify|cover|address|entail|mandate|prescribe|set out|set|list)\??$/,
    ],
  ],
  [
    "application-date",
    [
      /\bwhen\s+(?:does|do|did|will|shall)\b.*\b(?:apply|applies|take effect|enter into force|come into (?:force|effect)|become (?:applicable|effective))\b/,
      /\b(?:apply|applies|applicable|application)\s+(?:from|as of|starting)\b/,
      /\b(?:date of application|entry into force|enters? into force|effective date|compliance date|from (?:what|which) date|starts? to apply|become[s]? applicable|become[s]? effective)\b/,
      /\bwhen\s+(?:must|do|does|did|should|will)\b.*\bcomply\b/,
      // "By what date did health plans have to comply …?", "… have to use the national provider identifier?"
      /\b(?:by|from|as of|until) (?:what|which) date\b.*\b(?:comply|compliance|use|implement|apply|adopt)\b/,
      /\b(?:da quando|a decorrere da quando|a partire da quando)\b/,
      /\b(?:entrata in vigore|entra in vigore|data di applicazione|diventa applicabile|decorrenza)\b/,
      /\bquando\s+(?:si applica|si applicano|e applicabile|sono applicabili|acquista efficacia)\b/,
    ],
  ],
  [
    "frequency",
    [
      /\bhow (?:often|frequently|regularly)\b/,
      /\bat what (?:intervals?|frequency)\b/,
      /\bwith what (?:frequency|periodicity)\b/,
      /\bhow many times (?:a|per|each|every)\b/,
      /\b(?:frequency|periodicity)\b/,
      /\bogni quanto\b/,
      /\bcon quale (?:frequenza|periodicita|cadenza)\b/,
      /\b(?:periodicita|frequenza|cadenza)\b/,
      /\bquante volte\b/,
    ],
  ],
  [
    "deadline",
    [
      /\bhow (?:quickly|soon|fast|promptly|long)\b/,
      /\bwithin (?:how many|how much time|what (?:time|period|timeframe|time frame|deadline|timescale))\b/,
      /\bhow (?:many|much) (?:days|hours|months|weeks|years|business days|working days|time)\b/,
      /\bby when\b/,
      // "What is the latest it can tell us?", "at the latest by when …"
      /\b(?:the|at the) latest\b/,
      /\bhow far back\b/,
      /\b(?:by|until|before) (?:what|which) date\b/,
      /\bhow long does\b.*\b(?:last|run)\b/,
      /\bquanto dura\b/,
      /\b(?:deadline|deadlines|time limit|time-limit|time limits|timeframe|time frame|timescale|no later than|notification period|retention period)\b/,
      new RegExp(String.raw`\bwhen (?:must|should|shall|do|does|is|are)\b.*\b${ACT_VERBS}`),
      /\bentro (?:quanti|quante|quale|quando|che)\b/,
      /\b(?:in|tra) quanti (?:giorni|mesi|ore)\b/,
      /\bquanto tempo\b/,
      /\bfino a (?:che|quale) (?:giorno|data|ora)\b|\bfino a quando\b/,
      /\b(?:termine|termini|scadenza|scadenze|tempistica|tempistiche)\b/,
      /\bquando\s+(?:deve|devono|va|vanno)\b/,
    ],
  ],
  [
    "definition",
    [
      /\bhow (?:does|do)\b[^?]*\b(?:describe|define|characteri[sz]e)\b/,
      /\b(?:when|quando)\b[^?]*\b(?:is|are|e|sono)\s+(?:considered|deemed|regarded as|considerat[oaie]|ritenut[oaie])\b/,
    ],
  ],
  [
    "definition",
    [
      /\bwhat is meant by\b/,
      // "Which entities are covered entities?" asks what the term covers; "… are subject to …" asks the scope.
      /\b(?:which|what) (?:entities|persons|organi[sz]ations|bodies|parties) (?:are|count as|qualify as) (?!(?:subject|exempt|excluded|required|obliged|allowed|permitted|covered by|in scope|within|outside|responsible|liable)\b)(?:an? |the )?[\w-]+(?: [\w-]+){0,3}(?: (?:under|in|according to) .*)?\?*$/,
      /\b(?:che )?cos'\s*e\b/,
      /\bhow (?:does|do|is|are)\b.*\bdefined?\b/,
      /\bdefinition\b/,
      /\bcosa (?:vuol dire|significa)\b/,
      /\bsi intende\b/,
    ],
  ],
  [
    "amount",
    [
      /\bhow much\b/,
      /\b(?:what|which) (?:is the |are the )?(?:amount|maximum|minimum|fine|fines|penalty|penalties|threshold|thresholds|percentage|value|sum|cap|ceiling|level of the)\b/,
      /\b(?:maximum|minimum) (?:fine|amount|penalty|penalties|administrative fine|value|capital)\b/,
      /\bhow many (?:employees|euros?|dollars?|persons|staff|members|records|individuals)\b/,
      /\b(?:from )?what age\b|\bminimum age\b|\beta minima\b|\bquanti anni\b/,
      /\bhow many\b/,
      /\b(?:quanti|quante)\b/,
      /\b(?:punti|punteggio|punteggi|quota|quote)\b/,
      /\b(?:threshold|thresholds|monetary|per ?cent|percentage)\b/,
      /\b(?:quanto|quanta) (?:(?:ci|mi|ti|si|vi|ne) )?(?:ammonta|vale|costa|costano|e pari|deve essere)\b/,
      // "di quanto aumenta …", "quanta vita residua …": how much of something.
      /\bdi quanto\b|\bquant[oa] (?!tempo\b)[a-z]{3,}\b/,
      /\b(?:importo|importi|valore|soglia|soglie|percentuale|cauzione|garanzia provvisoria|garanzia definitiva|massimale|base d['’]asta|sanzione pecuniaria)\b/,
    ],
  ],
  [
    "scope",
    [
      /\b(?:apply to|applies to|applicable to|subject to|exempt\w*|excluded|exclusions?|in scope|out of scope|scope|covered by|fall(?:s)? (?:under|within|outside)|does not apply|do not apply)\b/,
      /\bto (?:whom|which \w+) (?:does|do|is|are)\b.*\bappl/,
      /^(?:which|what) (?:entities|persons|organi[sz]ations|bodies|companies|firms|undertakings|institutions)\b[^?]*\b(?:are|is|count as|qualify as)\b/,
      /\bwhen (?:must|is|are|should|shall)\b.*\b(?:required|designate|appoint|carry out|conduct|perform)\b/,
      /\b(?:si applica|si applicano|ambito di applicazione|esent[ie]|esenzion[ei]|esclus[ie]|rientra|rientrano|soggett[io] a)\b/,
    ],
  ],
  [
    "yes-no",
    [
      /^(?:can|may|must|is|are|does|do|did|should|shall|could|has|have|will|would|might|need)\b/,
      /^(?:e|e'|sono|si puo|puo|possono|deve|devono|esiste|esistono|c['’]e|ci sono|occorre|bisogna|vi e)\b/,
      /^(?:il|la|lo|l['’]|i|gli|le|un|una|uno)\b[^?]*\b(?:puo|possono|deve|devono|e tenut[oa]|sono tenut[ie]|(?:e|sono) (?:ammess[oaie]|consentit[oaie]|obbligatori[oaie]?|vietat[oaie]|necessari[oaie]?|richiest[oaie]|previst[oaie]|a carico))\b[^?]*\?\s*$/,
    ],
  ],
  [
    "prohibition",
    [
      /\b(?:prohibited|forbidden|not (?:allowed|permitted)|banned|must not|shall not|may not|cannot|prohibitions?)\b/,
      /\b(?:vietat[oaie]|divieto|divieti|non puo|non possono|non e consentit[oa]|non sono consentit[ie]|non e ammess[oa])\b/,
    ],
  ],
  [
    "permission",
    [
      /\b(?:under what (?:conditions|circumstances)|in (?:what|which) (?:cases|circumstances|situations))\b/,
      /\b(?:allowed|permitted|entitled|may|can)\b/,
      /\b(?:in quali casi|a quali condizioni|e consentit[oa]|sono consentit[ie]|e ammess[oa]|sono ammess[ie]|facolta|puo|possono)\b/,
    ],
  ],
  [
    "party",
    [
      /^who\b/,
      /\b(?:to|by|from) whom\b/,
      /\bwho (?:is|are|must|should|shall|has|have|can|may|will|decides|approves|signs|receives)\b/,
      /\b(?:which|what) (?:authority|authorities|body|bodies|person|persons|party|parties|organi[sz]ation|supervisor|regulator|official|role|roles|officer|officers|function|committee)\b/,
      /^chi\b/,
      /\b(?:a|da|di) chi\b/,
      /\bquale (?:autorita|soggetto|ente|organo|ufficio|figura|tribunale|giudice|foro)\b/,
      /\b(?:which|what) (?:court|tribunal)\b/,
      /\bquali (?:soggetti|autorita|enti|organi|figure)\b/,
    ],
  ],
  [
    "procedure",
    [
      /\bhow (?:does|do|should|must|shall|can|is|are|to|will)\b/,
      /\b(?:steps?|process|procedures?|sequence|stages?|phases?|workflow)\b/,
      /\bwhat happens (?:after|when|if)\b/,
      /\bcome (?:si|deve|devono|avviene|viene|vengono|funziona|va|vanno)\b/,
      /\b(?:procedura|procedimento|modalita|fasi|passaggi|iter|svolgimento)\b/,
    ],
  ],
  [
    "requirements",
    [
      /\b(?:what|which)\b.*\b(?:must|shall|should|required|requirements?|obligations?|safeguards?|measures?|controls?|elements?|information|contents?|documents?|conditions|criteria|principles|rights|duties|responsibilities|specifications?|standards?|bases|grounds|rules|approaches|changes|tiers|types|categories|components|factors|activities|tasks|capabilit(?:y|ies)|practices)\b/,
      /\bwhat (?:must|should|shall|does|do)\b.*\b(?:do|include|contain|implement|ensure|provide|have|cover|address|require)\b/,
      /\b(?:list|enumerate)\b/,
      /\b(?:quali|cosa|che cosa)\b.*\b(?:deve|devono|requisiti|obblighi|documenti|contenere|contiene|misure|adempimenti|criteri|elementi|informazioni|dichiarazioni)\b/,
      /\b(?:requisiti|obblighi|adempimenti)\b/,
    ],
  ],
];

const PERMISSION_WORDS = /\b(?:can|may|could|allowed|permitted|entitled|puo|possono|si puo|consentit\w*|ammess\w*|possibile)\b/;
const OBLIGATION_WORDS =
  /\b(?:must|shall|required|need|needs|have to|has to|ought to|obliged|mandatory|obligatory|deve|devono|obbligatori\w*|necessari\w*|tenut[oaie]|occorre|bisogna)\b/;
const PROHIBITION_WORDS = /\b(?:prohibited|forbidden|banned|vietat\w*|divieto)\b/;

export interface AnswerTypeReading {
  answerType: AnswerType;
  /** Further things the question asks for, in rule order ("… and to whom?" → ["party"]). */
  alsoAsks: AnswerType[];
  /** For yes/no questions: whether it asks about a permission, an obligation, a prohibition or a fact. */
  modality?: YesNoModality;
}

/** Lower case with typographic apostrophes as typed ones; what the rules read. */
function normalise(question: string): string {
  // Accents folded: \b does not see "può" or "è" as words, so the Italian rules are written without them.
  return question.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/[’‘`]/g, "'").replace(/\s+/g, " ").trim();
}

// Rule "a framing clause is not the question": "Under GDPR, can we …?", "Per NIST 800-66, whose
// sign-off …?", "Ai sensi del disciplinare, entro quando …?" ask what follows the comma; the rules
// anchored at the question's start ("^can …" for a yes/no) read from there.
// A clause holding a question word is the question itself ("In what format does …, and …?").
const FRAMING =
  /^(?:under|per|as per|according to|pursuant to|in line with|in|for|secondo|ai sensi d\w*|in base a\w*|nel|nella)\s+(?![^,?]*\b(?:what|which|how|when|where|who|whom|whose|why|quale|quali|quando|come|chi|cosa|quanto|quanti|quanta|quante)\b)[^,?]{1,80},\s*/;

/**
 * Rule "a scenario, then the question": auditors describe what happened, then ask ("A stolen
 * laptop held patient records … Do we still need to write to each affected person?"). The last
 * sentence ending in "?" is what is asked; the sentences before it only set the facts.
 */
function askedSentence(question: string): string {
  const sentences = splitSentences(question);
  if (sentences.length < 2) return question;
  return sentences.findLast((x) => x.trim().endsWith("?")) ?? question;
}

export function classifyAnswerType(question: string): AnswerTypeReading {
  const whole = normalise(question);
  const asked = normalise(askedSentence(question)).replace(FRAMING, "");
  const reading = classifyNormalised(asked, question);
  // What the scenario says counts when the asked sentence alone says nothing of its type.
  return reading.answerType === "other" && asked !== whole ? classifyNormalised(whole, question) : reading;
}

function classifyNormalised(q: string, question: string): AnswerTypeReading {
  // A type ranks where its first matching rule stands (a type may have an early, narrow rule and a later, broad one).
  const at = new Map<AnswerType, number>();
  RULES.forEach(([type, patterns], index) => {
    if (!at.has(type) && patterns.some((re) => re.test(q))) at.set(type, index);
  });
  // The retrieval's own test for "what is X" / "cosa si intende per X" questions ranks with the definition rules.
  if (!at.has("definition") && isDefinitionQuestion(question))
    at.set(
      "definition",
      RULES.findIndex(([type]) => type === "definition"),
    );
  const ordered = [...at.entries()].sort((a, b) => a[1] - b[1]).map(([type]) => type);
  let answerType: AnswerType = ordered[0] ?? "other";
  // A yes/no question about a permission or prohibition keeps "yes-no": the answer leads with
  // yes or no and its condition; its modality says which.
  const reading: AnswerTypeReading = { answerType, alsoAsks: [] };
  if (answerType === "yes-no") {
    reading.modality = PROHIBITION_WORDS.test(q) ? "prohibition" : PERMISSION_WORDS.test(q) ? "permission" : OBLIGATION_WORDS.test(q) ? "obligation" : "fact";
  }
  // "What must …" questions match "prohibition"/"permission" only through modal words; a
  // requirements noun ("safeguards", "requisiti") says what they ask for.
  if (
    answerType === "permission" &&
    !/\b(?:allowed|permitted|authori[sz]ed|entitled|conditions|circumstances|cases|consentit|ammess|facolta|casi)\w*/.test(q) &&
    ordered.includes("requirements")
  )
    answerType = "requirements";
  if (answerType === "permission" && /^(?:how|come)\b/.test(q) && ordered.includes("procedure")) answerType = "procedure";
  reading.answerType = answerType;
  reading.alsoAsks = ordered.filter(
    (t) => t !== answerType && t !== "yes-no" && t !== "permission" && t !== "prohibition" && t !== "procedure" && t !== "requirements",
  );
  return reading;
}
