/** Properties of the gate over generated commands (fast-check, fixed seeds so runs repeat). */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { scanCommand } from '../../src/core/gate/scan';
import { TRUSTED, verdictOf } from './helpers';

/** Pieces of shell syntax, quoting and expansion that random commands are built from. */
const FRAGMENTS = [
  ...["'", '"', '\\', ' ', '\t', '\n', 'a', 'x', '-', '--', '=', 'X=1', '~', '/', '.', ':', ',', '%', '!', '^'],
  ...['$', '$x', '$(', '${', "$'", '`', '(', ')', '{', '}', '*', '?', '[', ']', '#', ';', '&', '|', '&&', '||'],
  ...['>', '<', '2', '1', '2>&1', '2>/dev/null', '\\\n', "'a b'", '"c d"', 'touch p', 'tee f', 'e\\cho', 'rm'],
];
const command = fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 10 }).map((parts) => parts.join(''));

describe('gate: properties', () => {
  it('never throws, and every verdict says allowed or blocked', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), command), async (s) => {
        const v = await verdictOf(s, TRUSTED);
        assert.match(v.reason, v.allowed ? /^allowed: / : /^blocked: /);
        assert.ok(v.rule.length > 0);
      }),
      { seed: 20240601, numRuns: 3000 },
    );
  });

  it('whatever comes before it, a command on a new line after ";" is still judged', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 40 }), command), async (s) => {
        assert.equal((await verdictOf(`${s} ;\nrm -rf x`, TRUSTED)).allowed, false);
      }),
      { seed: 7, numRuns: 3000 },
    );
  });

  it('an allowed command runs in /bin/sh with exactly the words the gate judged, and writes nothing', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'planwise-gate-sh-')));
    const ctx = { roots: [dir], trusted: true, home: join(dir, 'no-home') };
    let ran = 0;
    try {
      await fc.assert(
        fc.asyncProperty(command, async (args) => {
          const line = `printf '<%s>' ${args}`;
          if (!(await verdictOf(line, ctx)).allowed) return;
          const scanned = scanCommand(line);
          assert.ok(scanned.ok);
          const r = spawnSync('/bin/sh', ['-c', line], { cwd: dir, encoding: 'utf8', timeout: 5000 });
          ran++;
          assert.deepEqual(readdirSync(dir), [], `${JSON.stringify(line)} created files`);
          if (scanned.segments.length === 1 && r.status === 0 && !line.includes('>')) {
            const words = (scanned.segments[0]?.words ?? []).slice(2).map((w) => w.value);
            // Tilde expansion is the shell's; the gate judged the `~` path separately.
            if (!words.some((w) => w.includes('~'))) {
              assert.equal(r.stdout, words.length === 0 ? '<>' : words.map((w) => `<${w}>`).join(''), line);
            }
          }
        }),
        { seed: 42, numRuns: 1500 },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.ok(ran > 100, `only ${ran} generated commands were allowed`);
  });
});
