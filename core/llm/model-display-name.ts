import path from "node:path";

// The name the app shows for a model. A GGUF's `general.name` is often the architecture ("llama")
// or missing, which told the user nothing: the header read "LLM llama" for any Llama-family
// file. Then the file's own name says which model it is.

/** `general.name` when it names the model, else the file name without `.gguf`. */
export function modelDisplayName(ggufName: string | null | undefined, architecture: string | null | undefined, file: string): string {
  const name = ggufName?.trim() ?? "";
  const generic = name === "" || (architecture !== null && architecture !== undefined && name.toLowerCase() === architecture.trim().toLowerCase());
  return generic ? path.basename(file).replace(/\.gguf$/i, "") : name;
}
