import os from "node:os";
import path from "node:path";

// Where a user's library lives when no --db/--data-dir is given: the platform's per-user app-data
// folder, shared by the CLI, the web host and the desktop app so they all see one library.
export function defaultDataDir(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string {
  switch (platform) {
    case "win32":
      return path.join(env.APPDATA ?? path.join(home, "AppData", "Roaming"), "ClauseGraph");
    case "darwin":
      return path.join(home, "Library", "Application Support", "ClauseGraph");
    default:
      return path.join(env.XDG_DATA_HOME ?? path.join(home, ".local", "share"), "clausegraph");
  }
}
