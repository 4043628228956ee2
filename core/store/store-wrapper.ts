// The shape every store wrapper (read cache, section files, cross-document index) shares: its own
// methods answer in place of the store's, the methods it knows leave its state alone pass through,
// and every other method (one that may write, or one added to GraphStore later) runs inside the
// wrapper's `around`, so that no write can slip past what the wrapper holds.

/** Runs a method that may write: `call` runs it on the store with its arguments. */
export type AroundWrite = (name: string, args: unknown[], call: () => Promise<unknown>) => Promise<unknown>;

export function wrapStore<S extends object, O extends object>(store: S, own: O, passes: (name: string) => boolean, around: AroundWrite): S & O {
  return new Proxy(store, {
    get(target, property, receiver) {
      if (typeof property === "string" && Object.hasOwn(own, property)) return own[property as keyof O];
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function" || typeof property !== "string" || passes(property)) return value;
      return (...args: unknown[]) => around(property, args, async () => (value as (...a: unknown[]) => unknown).apply(target, args));
    },
  }) as S & O;
}
