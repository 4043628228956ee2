// Bytes per block and elements per block of the ggml tensor types whose layout we are sure of, so a
// truncated download is caught from the header alone (values checked against the native
// getTypeSizeForGgmlType/getBlockSizeForGgmlType of node-llama-cpp 3.21.1). A type missing here only
// weakens that check (the last tensor must start inside the file); it never rejects a valid model.
const SIZES: ReadonlyMap<number, { bytes: number; block: number }> = new Map([
  [0, { bytes: 4, block: 1 }], // F32
  [1, { bytes: 2, block: 1 }], // F16
  [2, { bytes: 18, block: 32 }], // Q4_0
  [3, { bytes: 20, block: 32 }], // Q4_1
  [6, { bytes: 22, block: 32 }], // Q5_0
  [7, { bytes: 24, block: 32 }], // Q5_1
  [8, { bytes: 34, block: 32 }], // Q8_0
  [10, { bytes: 84, block: 256 }], // Q2_K
  [11, { bytes: 110, block: 256 }], // Q3_K
  [12, { bytes: 144, block: 256 }], // Q4_K
  [13, { bytes: 176, block: 256 }], // Q5_K
  [14, { bytes: 210, block: 256 }], // Q6_K
  [15, { bytes: 292, block: 256 }], // Q8_K
  [20, { bytes: 18, block: 32 }], // IQ4_NL
  [23, { bytes: 136, block: 256 }], // IQ4_XS
  [24, { bytes: 1, block: 1 }], // I8
  [25, { bytes: 2, block: 1 }], // I16
  [26, { bytes: 4, block: 1 }], // I32
  [27, { bytes: 8, block: 1 }], // I64
  [28, { bytes: 8, block: 1 }], // F64
  [30, { bytes: 2, block: 1 }], // BF16
]);

/** Bytes a tensor's data takes in the file, or null for a type not in the table. */
export function ggmlTensorBytes(ggmlType: number, dimensions: readonly (number | bigint)[]): number | null {
  const size = SIZES.get(ggmlType);
  if (size === undefined) return null;
  let elements = 1n;
  for (const d of dimensions) elements *= BigInt(d);
  // Rows are whole blocks (ggml_nbytes): elements / block * bytes.
  return Number((elements * BigInt(size.bytes)) / BigInt(size.block));
}
