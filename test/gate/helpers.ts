import assert from 'node:assert/strict';
import * as path from 'node:path';
import { checkShellCommand, type GateContext, type Verdict } from '../../src/core/gate';

/** A lexical workspace: the gate never touches the disk, so these paths need not exist. */
export const ROOT = path.resolve('/ws/project');
export const HOME = path.resolve('/home/dev');
export const TRUSTED: GateContext = { roots: [ROOT], trusted: true, home: HOME };
export const UNTRUSTED: GateContext = { ...TRUSTED, trusted: false };

export function expectBlocked(command: string, rule: string, reasonPart?: string, ctx = TRUSTED): Verdict {
  const v = checkShellCommand(command, ctx);
  assert.equal(v.allowed, false, `expected ${JSON.stringify(command)} to be blocked, got: ${v.reason}`);
  assert.equal(v.rule, rule, `rule for ${JSON.stringify(command)} (reason: ${v.reason})`);
  assert.match(v.reason, /^blocked: /);
  if (reasonPart !== undefined) assert.ok(v.reason.includes(reasonPart), `reason '${v.reason}' lacks '${reasonPart}'`);
  return v;
}

export function expectAllowed(command: string, ctx = TRUSTED): Verdict {
  const v = checkShellCommand(command, ctx);
  assert.equal(v.allowed, true, `expected ${JSON.stringify(command)} to be allowed, got: ${v.reason}`);
  assert.match(v.reason, /^allowed: /);
  return v;
}
