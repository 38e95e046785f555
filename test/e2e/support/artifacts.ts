// What a scenario leaves and reads besides the workbench: the logs a failed scenario needs for
// diagnosis (Planwise's output channel, the extension host log, copied to
// test-artifacts/e2e/logs/<name>/ before the server's temp folders go), the JSON-lines logs its
// preloads append to, and its teardown.
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

/** What a scenario's `before` started; each part may be missing when `before` failed early. */
export interface ScenarioParts {
  readonly server?: { readonly userDataDir: string; stop(): Promise<void> };
  readonly wb?: { close(): Promise<void> };
  readonly model?: { close(): Promise<void> };
  readonly ws?: { cleanup(): void };
}

/**
 * For `after`: keeps the scenario's logs (under `name`), closes the workbench, stops the server and
 * the model, removes the workspace and then `paths` (temporary files and folders of the scenario).
 * Every step runs even when one before it failed, so a failure never leaves a code-server behind
 * to slow the next scenario; the first failure is thrown at the end.
 */
export async function endScenario(name: string, parts: ScenarioParts, ...paths: (string | undefined)[]): Promise<void> {
  const steps: (() => unknown)[] = [
    () => parts.server && saveLogs(name, parts.server.userDataDir),
    () => parts.wb?.close(),
    () => parts.server?.stop(),
    () => parts.model?.close(),
    () => parts.ws?.cleanup(),
    ...paths.map((p) => () => p !== undefined && rmSync(p, { recursive: true, force: true })),
  ];
  const failures: unknown[] = [];
  for (const step of steps) {
    try {
      await step();
    } catch (err) {
      failures.push(err);
    }
  }
  if (failures.length > 0) throw failures[0];
}
