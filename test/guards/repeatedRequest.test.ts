import assert from 'node:assert/strict';
import { TurnGuards, requestKey } from '../../src/core/agent/guards';
import type { OutcomeKind } from '../../src/core/agent/guards';
import { bookkeeping, drive, firstTrip, mutation, read, shell, times, verification } from './helpers';

const key = (tool: string, kind: OutcomeKind, args: Record<string, unknown>): string => requestKey(tool, kind, args);

describe('guards: repeated semantic requests (planning)', () => {
  describe('requestKey', () => {
    const same: {
      name: string;
      a: [string, OutcomeKind, Record<string, unknown>];
      b: [string, OutcomeKind, Record<string, unknown>];
    }[] = [
      {
        name: 'max_output_tokens is an output control',
        a: ['read_file', 'read', { path: 'src/a.ts' }],
        b: ['read_file', 'read', { path: 'src/a.ts', max_output_tokens: 400 }],
      },
      {
        name: 'limit and head are output controls',
        a: ['code_search', 'search', { pattern: 'foo', limit: 10 }],
        b: ['code_search', 'search', { pattern: 'foo', head: 50 }],
      },
      {
        name: 'argument order does not matter',
        a: ['code_search', 'search', { pattern: 'foo', glob: '*.ts' }],
        b: ['code_search', 'search', { glob: '*.ts', pattern: 'foo' }],
      },
      {
        name: 'equivalent paths are the same path',
        a: ['read_file', 'read', { path: './src/a.ts' }],
        b: ['read_file', 'read', { path: 'src//a.ts' }],
      },
      {
        name: 'a piped head is an output control of a shell command',
        a: ['exec_command', 'shell', { command: 'rg -n foo src | head -20' }],
        b: ['exec_command', 'shell', { command: 'rg -n foo src | head -n 80' }],
      },
      {
        name: 'the line count of a leading head is an output control',
        a: ['exec_command', 'shell', { command: 'head -n 40 src/a.ts' }],
        b: ['exec_command', 'shell', { command: 'head -n 200 ./src/a.ts' }],
      },
      {
        name: 'whitespace and quoting do not make a command new',
        a: ['exec_command', 'shell', { command: "rg  -n 'foo'   src" }],
        b: ['exec_command', 'shell', { command: 'rg -n foo src', max_output_tokens: 1000 }],
      },
      {
        name: 'a cd prefix equals a workdir',
        a: ['exec_command', 'shell', { command: 'cd src && ls' }],
        b: ['exec_command', 'shell', { command: 'ls', workdir: 'src' }],
      },
    ];
    for (const s of same) {
      it(`same request: ${s.name}`, () => assert.equal(key(...s.a), key(...s.b)));
    }

    const different: {
      name: string;
      a: [string, OutcomeKind, Record<string, unknown>];
      b: [string, OutcomeKind, Record<string, unknown>];
    }[] = [
      {
        name: 'another path',
        a: ['read_file', 'read', { path: 'src/a.ts' }],
        b: ['read_file', 'read', { path: 'src/b.ts' }],
      },
      {
        name: 'another tool',
        a: ['read_file', 'read', { path: 'src/a.ts' }],
        b: ['view_file', 'read', { path: 'src/a.ts' }],
      },
      {
        name: 'another offset (pagination is content, not an output control)',
        a: ['read_file', 'read', { path: 'a.ts', offset: 0 }],
        b: ['read_file', 'read', { path: 'a.ts', offset: 200 }],
      },
      {
        name: 'another sed range',
        a: ['exec_command', 'shell', { command: "sed -n '1,40p' a.ts" }],
        b: ['exec_command', 'shell', { command: "sed -n '41,80p' a.ts" }],
      },
      {
        name: 'a tail is content, not an output control',
        a: ['exec_command', 'shell', { command: 'rg foo | tail -5' }],
        b: ['exec_command', 'shell', { command: 'rg foo' }],
      },
    ];
    for (const d of different) {
      it(`different request: ${d.name}`, () => assert.notEqual(key(...d.a), key(...d.b)));
    }
  });

  const distinct = (i: number) => read(`src/f${i}.ts`);

  it('12 genuinely distinct inspections remain eligible (no trip even after 30)', () => {
    const g = new TurnGuards({}, 'plan');
    assert.equal(firstTrip(drive(g, times(30, distinct))), -1);
  });

  it('12 consecutive inspections containing one repeat schedule the pass on the 12th', () => {
    const g = new TurnGuards({}, 'plan');
    // f0, f0 (repeat, differing only in an output control), then ten distinct reads.
    const seq = [read('src/f0.ts'), read('src/f0.ts', { args: { path: 'src/f0.ts', max_output_tokens: 99 } })];
    for (let i = 1; i <= 10; i++) seq.push(distinct(i));
    const actions = drive(g, seq);
    assert.equal(firstTrip(actions), 11);
    const a = actions[11]!;
    assert.equal(a.type === 'synthesis' && a.guard, 'repeated_request');
    assert.match(a.type === 'synthesis' ? a.reason : '', /12 consecutive inspections include 1 repeated request/);
    assert.match(a.type === 'synthesis' ? a.reason : '', /read::inspection::read_file::src ×1/);
  });

  it('a repeat of a request older than the window still counts once it is inside the last 12', () => {
    const g = new TurnGuards({}, 'plan');
    const seq = [...times(20, distinct), distinct(3)]; // the 21st repeats the 4th
    const actions = drive(g, seq);
    assert.equal(firstTrip(actions), 20);
  });

  const breakers = [
    { name: 'verification', make: verification },
    { name: 'mutation', make: mutation },
  ];
  for (const b of breakers) {
    it(`${b.name} ends the run and forgets earlier requests`, () => {
      const g = new TurnGuards({}, 'plan');
      drive(g, [distinct(0), distinct(0), ...times(5, (i) => distinct(i + 1))]);
      drive(g, [b.make()]);
      assert.equal(g.stats.repeatedRequest.run, 0);
      // f0 again is not a repeat any more: eleven distinct-looking reads then do not trip.
      assert.equal(firstTrip(drive(g, [distinct(0), ...times(12, (i) => distinct(i + 40))])), -1);
    });
  }

  it('bookkeeping neither counts as an inspection nor breaks the run', () => {
    const g = new TurnGuards({}, 'plan');
    const seq = [distinct(0), distinct(0), bookkeeping(), ...times(10, (i) => distinct(i + 1))];
    assert.equal(firstTrip(drive(g, seq)), seq.length - 1);
  });

  it('does not run in build mode', () => {
    const g = new TurnGuards({ diverseChurn: 0 }, 'build');
    assert.equal(
      firstTrip(
        drive(
          g,
          times(13, () => shell('git status')),
        ),
      ),
      -1,
    );
  });
});
