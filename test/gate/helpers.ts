/**
 * A real workspace for the gate's tests: the gate resolves every path on the file system, so the
 * tests judge commands in a temporary project with real files, an inside symlink and symlinks
 * that escape to a real directory outside the workspace.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { judgeCommand, type GateContext, type Judgement, type Verdict } from '../../src/core/gate';
import { NodeWorkspaceReader } from '../../src/node/fsWorkspace';

const BASE = realpathSync(mkdtempSync(path.join(tmpdir(), 'planwise-gate-')));
/** The workspace root. */
export const ROOT = path.join(BASE, 'project');
/** A home directory outside the workspace (with a project of its own, `~/proj`). */
export const HOME = path.join(BASE, 'home');
/** A directory outside the workspace that symlinks in the workspace point to. */
export const OUTSIDE = path.join(BASE, 'outside');

function file(rel: string, text = 'x\n'): void {
  const p = path.join(BASE, rel);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, text);
}

for (const f of [
  'README.md',
  'a.ts',
  'a.txt',
  'b.txt',
  'f',
  'x',
  'src/a.ts',
  'src/b.ts',
  'src/c.js',
  'src/core/x.ts',
  'test/a.test.ts',
  'package.json',
  'Cargo.toml',
  'docs/guide.md',
]) {
  file(`project/${f}`, f === 'package.json' ? '{"scripts":{"test":"true"}}\n' : 'x\n');
}
mkdirSync(path.join(ROOT, 'sub', 'deep'), { recursive: true });
mkdirSync(path.join(ROOT, 'a', 'b'), { recursive: true });
file('outside/secret', 'secret\n');
file('outside/passwd', 'root:x:0:0\n');
file('home/.ssh/id_rsa', 'key\n');
file('home/proj/README.md', 'home project\n');
symlinkSync(OUTSIDE, path.join(ROOT, 'link'));
symlinkSync(path.join(OUTSIDE, 'secret'), path.join(ROOT, 'secret-link'));
symlinkSync(path.join(ROOT, 'src'), path.join(ROOT, 'inlink'));
symlinkSync(path.join(OUTSIDE), path.join(ROOT, 'sub', 'deep', 'up'));

export interface TestContext {
  readonly roots: readonly string[];
  readonly trusted: boolean;
  readonly home?: string | undefined;
  readonly safeModes?: GateContext['safeModes'];
}

export const TRUSTED: TestContext = { roots: [ROOT], trusted: true, home: HOME };
export const UNTRUSTED: TestContext = { ...TRUSTED, trusted: false };

/** The gate's context for a test context: the real file system of its roots. */
export function gateContext(c: TestContext): GateContext {
  return {
    roots: c.roots,
    trusted: c.trusted,
    fs: new NodeWorkspaceReader(c.roots),
    ...(c.home !== undefined ? { home: c.home } : {}),
    ...(c.safeModes ? { safeModes: c.safeModes } : {}),
  };
}

export function judge(command: string, ctx: TestContext = TRUSTED): Promise<Judgement> {
  return judgeCommand(command, gateContext(ctx));
}

export async function verdictOf(command: string, ctx: TestContext = TRUSTED): Promise<Verdict> {
  return (await judge(command, ctx)).verdict;
}

export async function expectBlocked(
  command: string,
  rule: string,
  reasonPart?: string,
  ctx = TRUSTED,
): Promise<Verdict> {
  const v = await verdictOf(command, ctx);
  assert.equal(v.allowed, false, `expected ${JSON.stringify(command)} to be blocked, got: ${v.reason}`);
  assert.equal(v.rule, rule, `rule for ${JSON.stringify(command)} (reason: ${v.reason})`);
  assert.match(v.reason, /^blocked: /);
  if (reasonPart !== undefined) assert.ok(v.reason.includes(reasonPart), `reason '${v.reason}' lacks '${reasonPart}'`);
  return v;
}

export async function expectAllowed(command: string, ctx = TRUSTED): Promise<Verdict> {
  const v = await verdictOf(command, ctx);
  assert.equal(v.allowed, true, `expected ${JSON.stringify(command)} to be allowed, got: ${v.reason}`);
  assert.match(v.reason, /^allowed: /);
  return v;
}
