// Measuring an extension's activation inside the real VS Code (checked on code-server 4.100.3 and 4.106.3).
//
// Two sources work, and they answer different questions:
// 1. "Developer: Show Running Extensions" (the Running Extensions editor) shows, per activated
//    extension, the activation duration VS Code measured in the extension host (code loading +
//    activate() call + the promise it returned): a row `.runtime-extensions-editor .monaco-list-row`
//    with `aria-label="<extension name>"`, `.name` (display name), `.version` and `.activation-time`
//    reading "Activation: 12ms" or "Startup Activation: 12ms" (startup = activated by `*` or a
//    startup event). `readActivationTimes()` opens it and parses the rows.
// 2. The extension host log, `<userDataDir>/logs/<stamp>/exthost1/remoteexthost.log`, has one info line
//    per activation: `ExtensionService#_doActivateExtension <publisher.name>, startup: <bool>,
//    activationEvent: '<event>'`, timestamped to the millisecond. It tells WHEN and WHY the extension
//    was activated (not how long it took). `readExthostActivations()` parses it.
// The duration telemetry (`extensionActivationTimes`) is not written anywhere with telemetry off.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Workbench } from './workbench';

export interface ActivationTime {
  /** The extension's `name` from package.json (the row's aria-label). */
  name: string;
  displayName: string;
  version: string;
  activationMs: number;
  /** true when VS Code counts it as a startup activation. */
  startup: boolean;
}

export function parseActivationLabel(text: string): { activationMs: number; startup: boolean } | null {
  const m = /(Startup )?Activation:\s*(\d+)\s*ms/i.exec(text);
  if (!m?.[2]) return null;
  return { activationMs: Number(m[2]), startup: m[1] !== undefined };
}

/**
 * Runs "Developer: Show Running Extensions" and returns the activation time of every activated
 * extension. The editor's list renders only the rows in view, so it is scrolled to the end.
 */
export async function readActivationTimes(wb: Workbench, opts: { timeoutMs?: number } = {}): Promise<ActivationTime[]> {
  await wb.runCommand('Developer: Show Running Extensions');
  const list = wb.page.locator('.runtime-extensions-editor .monaco-list');
  const rows = wb.page.locator('.runtime-extensions-editor .monaco-list-row');
  await rows.first().waitFor({ state: 'visible', timeout: opts.timeoutMs ?? 30_000 });
  const seen = new Map<string, { name: string; displayName: string; version: string; time: string }>();
  await list.hover();
  for (let unchanged = 0; unchanged < 2;) {
    const raw = await rows.evaluateAll((els) =>
      els.map((e) => ({
        name: e.getAttribute('aria-label') ?? '',
        displayName: (e.querySelector('.name') as HTMLElement | null)?.innerText ?? '',
        version: (e.querySelector('.version') as HTMLElement | null)?.innerText ?? '',
        time: (e.querySelector('.activation-time') as HTMLElement | null)?.innerText ?? '',
      })),
    );
    const before = seen.size;
    for (const r of raw) seen.set(r.name, r);
    unchanged = seen.size === before ? unchanged + 1 : 0;
    await wb.page.mouse.wheel(0, 400);
    await wb.page.waitForTimeout(150);
  }
  const out: ActivationTime[] = [];
  for (const r of seen.values()) {
    const t = parseActivationLabel(r.time);
    if (t) out.push({ name: r.name, displayName: r.displayName.trim(), version: r.version.trim(), ...t });
  }
  return out;
}

export interface ExthostActivation {
  /** `publisher.name` */
  id: string;
  /** Local timestamp as logged, e.g. "2026-01-01 12:00:00.123". */
  at: string;
  startup: boolean;
  activationEvent: string;
}

export function parseExthostLog(text: string): ExthostActivation[] {
  const re =
    /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) \[\w+\] ExtensionService#_doActivateExtension (\S+), startup: (true|false), activationEvent: '([^']*)'/gm;
  const out: ExthostActivation[] = [];
  for (const m of text.matchAll(re)) {
    out.push({ at: m[1] ?? '', id: m[2] ?? '', startup: m[3] === 'true', activationEvent: m[4] ?? '' });
  }
  return out;
}

/** The extension host log files of a server's user data folder (newest session last). */
export function exthostLogFiles(userDataDir: string): string[] {
  const logs = path.join(userDataDir, 'logs');
  if (!existsSync(logs)) return [];
  const files: string[] = [];
  for (const session of readdirSync(logs).sort()) {
    const dir = path.join(logs, session);
    for (const host of readdirSync(dir)
      .filter((d) => d.startsWith('exthost'))
      .sort()) {
      const file = path.join(dir, host, 'remoteexthost.log');
      if (existsSync(file)) files.push(file);
    }
  }
  return files;
}

/** Every activation recorded in the extension host logs of `userDataDir`. */
export function readExthostActivations(userDataDir: string): ExthostActivation[] {
  return exthostLogFiles(userDataDir).flatMap((f) => parseExthostLog(readFileSync(f, 'utf8')));
}
