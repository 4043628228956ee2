// What the command line prints comes partly from outside: file names, titles, document text,
// model output. A name holding "ESC ] 0;… BEL" would set the terminal's title, "ESC [2K CR" erase
// the line. Every write of the CLI goes through safeStream, which shows such characters as
// visible escapes instead of sending them; the progress bar alone writes its own controls.

/** C0 controls other than newline and tab, DEL, and C1 controls (U+009B is a one-character CSI). */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/gu;

/**
 * The text with every terminal control character written as `\uXXXX`: readable in plain output,
 * and still valid (and faithful) inside a JSON string, where these can only occur.
 */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

const RAW = Symbol("raw terminal stream");

/** The stream with every string written made terminal-safe; everything else passes through. */
export function safeStream(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  return new Proxy(stream, {
    get(target, prop) {
      if (prop === RAW) return target;
      if (prop === "write") {
        return (chunk: unknown, ...rest: unknown[]): boolean =>
          Reflect.apply(target.write, target, [typeof chunk === "string" ? terminalSafe(chunk) : chunk, ...rest]) as boolean;
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The stream under safeStream, for the one writer whose controls are its own (the progress bar). */
export function rawStream(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  const raw: unknown = Reflect.get(stream, RAW);
  return raw === undefined ? stream : (raw as NodeJS.WriteStream);
}
