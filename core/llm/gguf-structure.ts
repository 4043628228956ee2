import type { FileHandle } from "node:fs/promises";

// Walks a GGUF header (metadata and tensor infos) checking every length against the file before
// anything allocates or reads by it. node-llama-cpp's parser trusts those lengths: a corrupt string
// length of 3e9 made it ask Node for a 3 GB read, which aborts the whole process (a native assertion,
// not an exception). Returns a reason when the header is malformed, null when it is sound.

/** Byte sizes of the fixed-width GGUF value types (by type id). */
const FIXED: ReadonlyMap<number, number> = new Map([
  [0, 1], // uint8
  [1, 1], // int8
  [2, 2], // uint16
  [3, 2], // int16
  [4, 4], // uint32
  [5, 4], // int32
  [6, 4], // float32
  [7, 1], // bool
  [10, 8], // uint64
  [11, 8], // int64
  [12, 8], // float64
]);
const TYPE_STRING = 8;
const TYPE_ARRAY = 9;
/** No real key, value or tensor name comes near this; chat templates are a few KB. */
const MAX_STRING_BYTES = 64 * 1024 * 1024;
const MAX_ARRAY_DEPTH = 4;
/** GGML_MAX_DIMS */
const MAX_TENSOR_DIMS = 4;
const CHUNK = 1024 * 1024;

class Malformed extends Error {}

class BoundedReader {
  private buffer = Buffer.alloc(0);
  private bufferStart = 0;
  pos: number;

  constructor(
    private readonly handle: FileHandle,
    private readonly size: number,
    start: number,
  ) {
    this.pos = start;
  }

  private async bytes(n: number): Promise<Buffer> {
    if (n > this.size - this.pos) throw new Malformed("the header runs past the end of the file");
    const offset = this.pos - this.bufferStart;
    if (offset < 0 || offset + n > this.buffer.length) {
      const length = Math.min(Math.max(n, CHUNK), this.size - this.pos);
      const buf = Buffer.alloc(length);
      const { bytesRead } = await this.handle.read(buf, 0, length, this.pos);
      if (bytesRead < n) throw new Malformed("the header runs past the end of the file");
      this.buffer = buf.subarray(0, bytesRead);
      this.bufferStart = this.pos;
    }
    const start = this.pos - this.bufferStart;
    this.pos += n;
    return this.buffer.subarray(start, start + n);
  }

  skip(n: bigint): void {
    if (n > BigInt(this.size - this.pos)) throw new Malformed("the header runs past the end of the file");
    this.pos += Number(n);
  }

  async u32(): Promise<number> {
    return (await this.bytes(4)).readUInt32LE(0);
  }

  async u64(): Promise<bigint> {
    return (await this.bytes(8)).readBigUInt64LE(0);
  }

  async string(): Promise<void> {
    const length = await this.u64();
    if (length > BigInt(MAX_STRING_BYTES)) throw new Malformed(`a string of ${length} bytes in the header`);
    this.skip(length);
  }

  remaining(): bigint {
    return BigInt(this.size - this.pos);
  }
}

async function skipValue(reader: BoundedReader, type: number, depth: number): Promise<void> {
  const fixed = FIXED.get(type);
  if (fixed !== undefined) return reader.skip(BigInt(fixed));
  if (type === TYPE_STRING) return reader.string();
  if (type !== TYPE_ARRAY) throw new Malformed(`unknown metadata value type ${type}`);
  if (depth >= MAX_ARRAY_DEPTH) throw new Malformed("metadata arrays nested too deep");
  const itemType = await reader.u32();
  const count = await reader.u64();
  const itemFixed = FIXED.get(itemType);
  if (itemFixed !== undefined) return reader.skip(count * BigInt(itemFixed));
  // Every string or array item takes at least 8 bytes: a count beyond that cannot be real.
  if (count * 8n > reader.remaining()) throw new Malformed("a metadata array longer than the file");
  for (let i = 0n; i < count; i++) await skipValue(reader, itemType, depth + 1);
}

/**
 * `start` is the offset after the fixed header (magic, version, counts). Returns null when sound,
 * else what is wrong.
 */
export async function findGgufStructureProblem(
  handle: FileHandle,
  size: number,
  start: number,
  counts: { tensors: bigint; metadata: bigint },
): Promise<string | null> {
  const reader = new BoundedReader(handle, size, start);
  try {
    for (let i = 0n; i < counts.metadata; i++) {
      await reader.string(); // key
      await skipValue(reader, await reader.u32(), 0);
    }
    for (let i = 0n; i < counts.tensors; i++) {
      await reader.string();
      const dims = await reader.u32();
      if (dims < 1 || dims > MAX_TENSOR_DIMS) throw new Malformed(`a tensor with ${dims} dimensions`);
      for (let d = 0; d < dims; d++) {
        const n = await reader.u64();
        if (n > 2n ** 40n) throw new Malformed("a tensor dimension beyond any real model");
      }
      await reader.u32(); // ggml type: llama.cpp validates it
      await reader.u64(); // data offset: checked against the file size after parsing
    }
    return null;
  } catch (err) {
    if (err instanceof Malformed) return err.message;
    throw err;
  }
}
