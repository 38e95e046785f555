/** Launches the system's Chromium (Debian's package) for page tests and benchmarks; never downloads one. */
import { execFileSync } from 'node:child_process';
import { chromium, type Browser } from 'playwright-core';

export { CHROMIUM_ARGS } from '../support/chromium';
import { CHROMIUM_ARGS } from '../support/chromium';

export function chromiumPath(): string {
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error("No `chromium` on PATH. Install Debian's package: apt-get install chromium");
  }
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
}
