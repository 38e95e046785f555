/**
 * The project built by its own esbuild.mjs in a staging folder (sources linked in), so a test can
 * look at the bundles as shipped while the checkout's dist/ is left alone.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const repo = resolve(__dirname, '../..');

/** Builds into a new folder named after `prefix` and returns it; `args` go to esbuild.mjs. */
export async function stagedBuild(prefix: string, args: readonly string[] = []): Promise<string> {
  const stage = mkdtempSync(join(tmpdir(), prefix));
  for (const link of ['src', 'webview', 'node_modules', 'package.json', 'tsconfig.json']) {
    symlinkSync(join(repo, link), join(stage, link));
  }
  copyFileSync(join(repo, 'esbuild.mjs'), join(stage, 'esbuild.mjs'));
  // What esbuild.mjs reads besides the sources: its three helpers, and the panel's style sheet (it writes into media/).
  for (const file of [
    'scripts/cliBuild.mjs',
    'scripts/webviewBuild.mjs',
    'scripts/panelStyles.mjs',
    'media/panel.css',
  ]) {
    mkdirSync(dirname(join(stage, file)), { recursive: true });
    copyFileSync(join(repo, file), join(stage, file));
  }
  await new Promise<void>((res, rej) =>
    execFile(process.execPath, ['esbuild.mjs', ...args], { cwd: stage }, (e, _out, err) =>
      e ? rej(new Error(`node esbuild.mjs ${args.join(' ')} failed in ${stage}:\n${err}`)) : res(),
    ),
  );
  return stage;
}
