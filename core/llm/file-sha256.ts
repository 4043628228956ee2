import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";

// Models are gigabytes: hash while streaming, never by reading a whole file into memory.

export async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(createReadStream(file), hash);
  return hash.digest("hex");
}

/** Copies `from` to `to` and returns the sha256 of the bytes written, in one pass. */
export async function copyWithSha256(from: string, to: string, onBytes?: (bytes: number) => void): Promise<string> {
  const hash = createHash("sha256");
  let copied = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      copied += chunk.length;
      onBytes?.(copied);
      callback(null, chunk);
    },
  });
  await pipeline(createReadStream(from), tap, createWriteStream(to, { flags: "wx" }));
  return hash.digest("hex");
}
