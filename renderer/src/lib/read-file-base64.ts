/** A File's bytes as base64 without building a giant binary string (data URLs are encoded natively). */
export function readFileBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error ?? new Error("could not read the file"));
    reader.onload = () => {
      const url = typeof reader.result === "string" ? reader.result : "";
      const comma = url.indexOf(",");
      resolve(comma < 0 ? "" : url.slice(comma + 1));
    };
    reader.readAsDataURL(file);
  });
}
