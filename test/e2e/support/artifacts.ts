// Keeps what a failed scenario needs for diagnosis: the workbench logs (Planwise's output channel,
// the extension host log) copied to test-artifacts/e2e/logs/<name>/ before the server's temp folders go.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { artifactsDir } from '../harness';

export function saveLogs(name: string, userDataDir: string): string {
  const target = path.join(artifactsDir, 'logs', name);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  try {
    cpSync(path.join(userDataDir, 'logs'), target, { recursive: true });
  } catch {
    // no logs written yet
  }
  return target;
}

/** For `afterEach`: a screenshot of the workbench when the test just failed, named after it. */
export async function screenshotOnFailure(
  test: Mocha.Test | undefined,
  wb: { screenshot(name: string): Promise<string> } | undefined,
): Promise<void> {
  if (!wb || test?.state !== 'failed') return;
  const file = await wb.screenshot(`failed-${test.title.slice(0, 60)}`).catch(() => undefined);
  if (file) console.log(`      screenshot of the failure: ${file}`);
}

/** The records of a JSON-lines log a preload appends to (none while it does not exist yet). */
export function readJsonLines<T>(file: string): T[] {
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as T)
    : [];
}
