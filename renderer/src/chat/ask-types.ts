// The answer shape of the `ask` channel, from the contract.
export type { AskCitation, AskResult, AskSentence } from "../../../core/contract/contract.ts";
