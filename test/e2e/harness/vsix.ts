// Builds the VSIX files the scenarios install: Planwise's own (`npm run package`) and test fixtures.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './paths';

export interface BuiltVsix {
  file: string;
  bytes: number;
}

let planwiseVsix: BuiltVsix | undefined;

function runOrThrow(cmd: string, args: string[], cwd: string, what: string): void {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 });
  if (r.status !== 0) {
    const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.split('\n').slice(-40).join('\n');
    throw new Error(
      `${what} failed (\`${cmd} ${args.join(' ')}\`, exit ${r.status ?? r.signal}). Last output:\n${out}`,
    );
  }
}

/**
 * Packages Planwise exactly as a user gets it: `npm run package` (production build + vsce), which writes
 * planwise.vsix at the repository root. Built once per test process; set PLANWISE_E2E_VSIX to use a
 * ready-made file instead.
 */
export function buildPlanwiseVsix(): BuiltVsix {
  if (planwiseVsix) return planwiseVsix;
  const given = process.env.PLANWISE_E2E_VSIX;
  let file: string;
  if (given) {
    file = path.resolve(given);
    if (!existsSync(file)) throw new Error(`PLANWISE_E2E_VSIX points to ${file}, which does not exist.`);
  } else {
    file = path.join(repoRoot, 'planwise.vsix');
    rmSync(file, { force: true });
    runOrThrow('npm', ['run', 'package'], repoRoot, 'Packaging Planwise');
    if (!existsSync(file)) throw new Error(`\`npm run package\` succeeded but ${file} was not written.`);
  }
  planwiseVsix = { file, bytes: statSync(file).size };
  return planwiseVsix;
}

/**
 * Packs a fixture extension folder (plain JavaScript, no build step) into a VSIX in a temp folder.
 * The caller removes `path.dirname(result.file)` when done.
 */
export function packFixtureExtension(folder: string): BuiltVsix {
  const work = mkdtempSync(path.join(os.tmpdir(), 'planwise-e2e-fixture-'));
  const src = path.join(work, 'src');
  cpSync(folder, src, { recursive: true });
  const file = path.join(work, `${path.basename(folder)}.vsix`);
  const vsce = path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  runOrThrow(
    process.execPath,
    [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', file],
    src,
    `Packing the fixture extension ${path.basename(folder)}`,
  );
  return { file, bytes: statSync(file).size };
}
