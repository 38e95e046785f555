/**
 * The ripgrep that ships inside VS Code. Planwise never downloads one: when VS Code's copy is not
 * where it should be, search falls back to `rg` on PATH and then to the JavaScript searcher.
 */
import { join } from 'node:path';

export function bundledRipgrepCandidates(appRoot: string, platform: NodeJS.Platform = process.platform): string[] {
  const exe = platform === 'win32' ? 'rg.exe' : 'rg';
  return ['node_modules', 'node_modules.asar.unpacked'].map((dir) =>
    join(appRoot, dir, '@vscode', 'ripgrep', 'bin', exe),
  );
}

/** The first candidate that exists and can be run, or undefined. */
export function findBundledRipgrep(
  appRoot: string | undefined,
  isExecutable: (path: string) => boolean,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  if (!appRoot) return undefined;
  return bundledRipgrepCandidates(appRoot, platform).find(isExecutable);
}
