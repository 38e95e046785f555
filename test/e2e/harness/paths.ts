// Where the end-to-end harness finds its tools and puts its output. No absolute machine paths:
// everything is relative to the repository root or found on PATH.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface Pin {
  /** The code-server every scenario runs in: its VS Code has the final Language Model provider API; on its own Node. */
  current: { version: string; vscode: string; nodeMajor: number; node: string };
  /** The code-server whose VS Code is the lowest `engines.vscode` allows; on the Node running the tests. */
  minimum: { version: string; vscode: string; nodeMajor: number };
}
const pin = JSON.parse(readFileSync(path.join(__dirname, 'code-server.json'), 'utf8')) as Pin;

/** The code-server release scenarios run in unless they ask for `minimum`, shared with scripts/e2e-setup.mjs. */
export const CODE_SERVER_VERSION: string = pin.current.version;

/**
 * Which install a scenario runs in:
 * - `current` (the default): code-server 4.106.3 = VS Code 1.106.3, whose VS Code has the final
 *   `lm.registerLanguageModelChatProvider` API, on the test-only Node 22 that `npm run e2e:setup`
 *   puts in .e2e-cache/node-<version>/;
 * - `minimum`: code-server 4.100.3 = VS Code 1.100.3, the lowest VS Code that `engines.vscode`
 *   (^1.100.0) allows, on the Node running the tests (the smoke scenario runs there too).
 */
export type CodeServerInstall = 'current' | 'minimum';

/** The code-server release of an install. */
export const CODE_SERVER_VERSIONS: Readonly<Record<CodeServerInstall, string>> = {
  current: pin.current.version,
  minimum: pin.minimum.version,
};

/** The VS Code release inside an install's code-server. */
export const VSCODE_VERSIONS: Readonly<Record<CodeServerInstall, string>> = {
  current: pin.current.vscode,
  minimum: pin.minimum.vscode,
};

export const repoRoot = path.resolve(__dirname, '..', '..', '..');
export const cacheDir = path.join(repoRoot, '.e2e-cache');
export const artifactsDir = path.join(repoRoot, 'test-artifacts', 'e2e');
export const fixturesDir = path.join(repoRoot, 'test', 'e2e', 'fixtures');

// The folder names predate the switch of the default (the minimum install came first).
const installDir: Record<CodeServerInstall, string> = {
  current: path.join(cacheDir, 'code-server-lm'),
  minimum: path.join(cacheDir, 'code-server'),
};

/** The code-server entry script installed by `npm run e2e:setup`; throws with the fix when it is missing. */
export function codeServerEntry(install: CodeServerInstall = 'current'): string {
  const codeServerPackage = path.join(installDir[install], 'node_modules', 'code-server');
  const entry = path.join(codeServerPackage, 'out', 'node', 'entry.js');
  const marker = path.join(installDir[install], 'setup-complete.json');
  if (!existsSync(entry) || !existsSync(marker)) {
    throw new Error(
      `code-server is not installed in ${path.relative(repoRoot, installDir[install])}/: run \`npm run e2e:setup\` first.`,
    );
  }
  const version = (
    JSON.parse(readFileSync(path.join(codeServerPackage, 'package.json'), 'utf8')) as { version: string }
  ).version;
  if (version !== CODE_SERVER_VERSIONS[install]) {
    throw new Error(
      `code-server ${version} is installed but the harness expects ${CODE_SERVER_VERSIONS[install]}: run \`npm run e2e:setup\`.`,
    );
  }
  return entry;
}

/** The Node that runs an install's code-server: the cached test-only Node 22, or this process's. */
export function codeServerNode(install: CodeServerInstall = 'current'): string {
  if (install === 'minimum') return process.execPath;
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const node = path.join(cacheDir, `node-${pin.current.node}`, 'node_modules', `node-linux-${arch}`, 'bin', 'node');
  if (!existsSync(node)) {
    throw new Error(
      `Node ${pin.current.node} (for code-server ${pin.current.version}) is not in ${path.relative(repoRoot, cacheDir)}/: run \`npm run e2e:setup\` first.`,
    );
  }
  return node;
}

/** Debian's Chromium (or PLANWISE_CHROMIUM). The harness never downloads a browser. */
export function chromiumPath(): string {
  const fromEnv = process.env.PLANWISE_CHROMIUM;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`PLANWISE_CHROMIUM points to ${fromEnv}, which does not exist.`);
    return fromEnv;
  }
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      const found = execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
      if (found) return found;
    } catch {
      // not on PATH; try the next name
    }
  }
  throw new Error(
    "Chromium was not found on PATH: install Debian's package (apt-get install chromium) or set PLANWISE_CHROMIUM.",
  );
}
