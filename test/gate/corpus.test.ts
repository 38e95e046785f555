/**
 * The adversarial corpus (`rejected.jsonl`: every command must be blocked, by the rule named on its
 * line) and realistic inspection commands (`allowed.txt`: every one must be allowed).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TRUSTED, UNTRUSTED, verdictOf } from './helpers';

interface RejectedCase {
  readonly command: string;
  readonly rule: string;
  /** false: judged in an untrusted workspace. */
  readonly trusted?: boolean;
}

const rejected: RejectedCase[] = readFileSync(join(__dirname, 'rejected.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as RejectedCase);

const allowedCommands = readFileSync(join(__dirname, 'allowed.txt'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '' && !l.startsWith('# '));

describe('gate: adversarial corpus (rejected.jsonl)', () => {
  it('holds at least 150 commands, each once', async () => {
    assert.ok(rejected.length >= 150, `only ${rejected.length} commands`);
    assert.equal(new Set(rejected.map((c) => `${c.trusted}:${c.command}`)).size, rejected.length);
  });
  for (const c of rejected) {
    it(`${c.rule}: ${JSON.stringify(c.command)}${c.trusted === false ? ' (untrusted)' : ''}`, async () => {
      const v = await verdictOf(c.command, c.trusted === false ? UNTRUSTED : TRUSTED);
      assert.equal(v.allowed, false, v.reason);
      assert.equal(v.rule, c.rule, v.reason);
      assert.match(v.reason, /^blocked: \S/);
    });
  }
});

describe('gate: realistic inspection commands (allowed.txt)', () => {
  it('holds at least 50 commands', async () => {
    assert.ok(allowedCommands.length >= 50, `only ${allowedCommands.length} commands`);
  });
  for (const command of allowedCommands) {
    it(command, async () => {
      const v = await verdictOf(command, TRUSTED);
      assert.equal(v.allowed, true, v.reason);
    });
  }
});
