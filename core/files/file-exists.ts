import { access } from "node:fs/promises";

/** Whether something exists at `file` (false too when it cannot be reached). */
export async function fileExists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}
