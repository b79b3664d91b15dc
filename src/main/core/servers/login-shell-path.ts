import { execFile } from 'node:child_process';
import path from 'node:path';

/**
 * A GUI app started at login (or from the Dock/Finder) inherits a minimal PATH without Homebrew,
 * nvm, ~/.local/bin… so `npx` and `uvx` are not found. Ask the user's login shell once.
 * Markers fence the value because rc files often print banners.
 */
export function readLoginShellPath(shell = process.env.SHELL || '/bin/sh', timeoutMs = 5000): Promise<string | undefined> {
  if (process.platform === 'win32') return Promise.resolve(undefined);
  const marker = '__XIAOZHI_TRAY_PATH__';
  return new Promise((resolve) => {
    execFile(
      shell,
      ['-ilc', `printf '%s%s%s' '${marker}' "$PATH" '${marker}'`],
      { timeout: timeoutMs, env: { ...process.env, DISABLE_AUTO_UPDATE: 'true' } },
      (error, stdout) => {
        if (error) return resolve(undefined);
        const match = stdout.split(marker);
        resolve(match.length >= 3 && match[1] ? match[1] : undefined);
      },
    );
  });
}

/** The login shell's entries first, then any of ours it lacks, without duplicates. */
export function mergePath(loginPath: string | undefined, currentPath: string | undefined): string {
  const parts = [...(loginPath ?? '').split(path.delimiter), ...(currentPath ?? '').split(path.delimiter)];
  return [...new Set(parts.filter((p) => p.length > 0))].join(path.delimiter);
}
