import type { Engine } from "../../model/engine-types.ts";
import type { Channel, ParsedParams, Value, WireEvent } from "../contract.ts";
import type { JobTracker } from "../job-tracker.ts";
import type { ImportGate } from "./document-imports.ts";

// The shape every feature's handlers are written against: one function per channel, taking the
// params its zod schema parsed and promising the value its result schema describes (contract.ts).
// The dispatcher's map is typed `Handlers`, so a channel added to the contract without a handler,
// or a handler answering the wrong shape, fails to compile instead of failing at run time.

/** What a request on channel C runs: params as parsed, the result as the contract declares it. */
export type Handler<C extends Channel> = (params: ParsedParams<C>) => Promise<Value<C>>;

/** One feature's channels and their handlers. */
export type FeatureHandlers<C extends Channel> = { [K in C]: Handler<K> };

/** Every channel of the contract with its handler. */
export type Handlers = FeatureHandlers<Channel>;

/** What the handlers share: the engine, the event sink, the running jobs and the import rules. */
export interface HandlerContext {
  engine: Engine;
  /** Pushes an event to every connected front end. */
  emit(event: WireEvent): void;
  jobs: JobTracker;
  imports: ImportGate;
}
