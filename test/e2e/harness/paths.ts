// Where the end-to-end harness finds its tools and puts its output. No absolute machine paths:
// everything is relative to the repository root or found on PATH.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The pinned code-server release, shared with scripts/e2e-setup.mjs. */
export const CODE_SERVER_VERSION: string = (
  JSON.parse(readFileSync(path.join(__dirname, 'code-server.json'), 'utf8')) as { version: string }
).version;

export const repoRoot = path.resolve(__dirname, '..', '..', '..');
export const cacheDir = path.join(repoRoot, '.e2e-cache');
export const artifactsDir = path.join(repoRoot, 'test-artifacts', 'e2e');
export const fixturesDir = path.join(repoRoot, 'test', 'e2e', 'fixtures');

const codeServerPackage = path.join(cacheDir, 'code-server', 'node_modules', 'code-server');

/** The code-server entry script installed by `npm run e2e:setup`; throws with the fix when it is missing. */
export function codeServerEntry(): string {
  const entry = path.join(codeServerPackage, 'out', 'node', 'entry.js');
  const marker = path.join(cacheDir, 'code-server', 'setup-complete.json');
  if (!existsSync(entry) || !existsSync(marker)) {
    throw new Error(
      `code-server is not installed in ${path.relative(repoRoot, cacheDir)}/: run \`npm run e2e:setup\` first.`,
    );
  }
  const version = (
    JSON.parse(readFileSync(path.join(codeServerPackage, 'package.json'), 'utf8')) as { version: string }
  ).version;
  if (version !== CODE_SERVER_VERSION) {
    throw new Error(
      `code-server ${version} is installed but the harness expects ${CODE_SERVER_VERSION}: run \`npm run e2e:setup\`.`,
    );
  }
  return entry;
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
