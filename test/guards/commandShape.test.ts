import assert from 'node:assert/strict';
import { posix } from 'node:path';
import { relativeDir } from '../../src/core/gate/shape';
import { judge } from '../gate/helpers';
import {
  categoryOf,
  commandOf,
  firstSegment,
  isVerificationCommand,
  normalizePath,
  listingRoots,
  pathOperands,
  segmentsOf,
} from '../../src/core/agent/guards/commandShape';
import { TurnGuards } from '../../src/core/agent/guards';

describe('guards: command shape', () => {
  const verify: [string, boolean][] = [
    ['npm test', true],
    ['npm run test:unit', true],
    ['pnpm run typecheck', true],
    ['yarn lint', true],
    ['npx tsc --noEmit', true],
    ['npx mocha test/a.test.ts', true],
    ['cargo clippy --all-targets', true],
    ['cargo check', true],
    ['go test ./...', true],
    ['python -m pytest -q', true],
    ['cd pkg && make test', true],
    ['rg foo src', false],
    ['cat package.json', false],
    ['npm ls', false],
    ['npm run dev', false],
    ['git status', false],
    ['find . -name test', false],
    ['rg test | wc -l', false],
  ];
  for (const [cmd, want] of verify) {
    it(`${cmd} is ${want ? '' : 'not '}verification`, () => assert.equal(isVerificationCommand(segmentsOf(cmd)), want));
  }

  it('derives a category when the runloop gives none', () => {
    assert.equal(categoryOf({ tool: 'exec_command', kind: 'shell', args: { command: 'cargo test' } }), 'verification');
    assert.equal(categoryOf({ tool: 'exec_command', kind: 'shell', args: { command: 'rg x' } }), 'navigation');
    assert.equal(categoryOf({ tool: 'write_file', kind: 'write', args: {} }), 'mutation');
    assert.equal(categoryOf({ tool: 'task_tracker', kind: 'tracker', args: {} }), 'bookkeeping');
    assert.equal(categoryOf({ tool: 'request_user_input', kind: 'interview', args: {} }), 'bookkeeping');
    assert.equal(categoryOf({ tool: 'read_file', kind: 'read', args: {}, category: 'bookkeeping' }), 'bookkeeping');
  });

  it('a verification command with no category stays open after the preview budget is spent', () => {
    const g = new TurnGuards({ previewTurnBytes: { plan: 100, build: 100 } }, 'plan');
    g.previewFor(100, undefined, { tool: 'read_file', kind: 'read', args: {} });
    assert.equal(g.beforeCall({ tool: 'exec_command', kind: 'shell', args: { command: 'npm test' } }).admit, true);
    assert.equal(g.beforeCall({ tool: 'exec_command', kind: 'shell', args: { command: 'rg foo' } }).admit, false);
  });

  it('splits chains and pipes, folds cd prefixes and drops env assignments and redirect targets', () => {
    assert.deepEqual(segmentsOf('cd a && FOO=1 rg -n x b 2>/dev/null | head -5; ls'), [
      { program: 'rg', args: ['-n', 'x', 'b'], cwd: 'a', piped: false },
      { program: 'head', args: ['-5'], cwd: 'a', piped: true },
      { program: 'ls', args: [], cwd: 'a', piped: false },
    ]);
    assert.deepEqual(segmentsOf('/usr/bin/find . -type f'), [
      { program: 'find', args: ['.', '-type', 'f'], cwd: '.', piped: false },
    ]);
  });

  it('reads the command from a string or an argv array', () => {
    assert.equal(commandOf({ command: 'ls src' }), 'ls src');
    assert.equal(commandOf({ cmd: 'ls' }), 'ls');
    assert.equal(commandOf({ command: ['ls', 'my dir'] }), "ls 'my dir'");
    assert.equal(commandOf({}), '');
  });

  const paths: [string, string, string | undefined, string][] = [
    ['./src/', '.', undefined, 'src'],
    ['src/../lib', '.', undefined, 'lib'],
    ['core', 'src', undefined, 'src/core'],
    ['', '.', undefined, '.'],
    ['/ws', '.', '/ws', '.'],
    ['/ws/src/a.ts', '.', '/ws/', 'src/a.ts'],
    ['/wsx/a', '.', '/ws', '/wsx/a'],
    ['src\\core', '.', undefined, 'src/core'],
  ];
  for (const [p, cwd, root, want] of paths) {
    it(`normalizePath(${JSON.stringify(p)}, ${cwd}, ${String(root)}) = ${want}`, () =>
      assert.equal(normalizePath(p, cwd, root), want));
  }

  it('takes the first path segment', () => {
    assert.equal(firstSegment('src/core/a.ts'), 'src');
    assert.equal(firstSegment('/etc/hosts'), '/etc');
    assert.equal(firstSegment('.'), '.');
    assert.equal(firstSegment('README.md'), 'README.md');
  });
});

describe('command shape: from the gate parse', () => {
  it("reads operands from the kinds the gate's grammar gave each word, not from its own option table", async () => {
    const shapeOf = async (command: string) => {
      const j = await judge(command);
      assert.equal(j.verdict.allowed, true, j.verdict.reason);
      return j.shape ?? [];
    };
    // `-f` takes a file and `-e` a pattern: only the search root is an operand.
    const [grep] = await shapeOf('grep -rn -e foo -f a.txt src');
    assert.deepEqual(grep && pathOperands(grep), ['src']);
    // A value that looks like a path but is a pattern (`-g`), and fd's search path option.
    const [rg] = await shapeOf("rg -n -g 'src/*.ts' foo docs");
    assert.deepEqual(rg && pathOperands(rg), ['docs']);
    // An option the guards' own table never listed: its value is not taken for an operand.
    const [colors] = await shapeOf("rg --colors 'match:fg:red' foo src");
    assert.deepEqual(colors && pathOperands(colors), ['src']);
    // Without the gate's parse (a refused command) there is no grammar here: every word that is not an option.
    assert.deepEqual(pathOperands(segmentsOf("rg --colors 'match:fg:red' foo src")[0]!), [
      'match:fg:red',
      'foo',
      'src',
    ]);
    const [fd] = await shapeOf('fd -e ts --search-path src x');
    assert.deepEqual(fd && listingRoots(fd, '.'), ['src']);
    const [git] = await shapeOf('git --no-pager -C src log -3');
    assert.equal(git?.subcommand, 'log');
    assert.equal(git?.cwd, 'src');
  });
});

describe('command shape: a segment directory relative to the root', () => {
  it('reads as posix.relative does, for the root, folders under it, siblings and parents', () => {
    const roots = ['/w', '/w/proj', '/'];
    const dirs = [
      '/w',
      '/w/proj',
      '/w/proj/src',
      '/w/proj/src/a.b',
      '/w/proj-other',
      '/w/pro',
      '/',
      '/etc',
      '/w/proj/',
    ];
    for (const root of roots) {
      for (const dir of dirs) {
        assert.equal(relativeDir(root, dir), posix.relative(root, dir) || '.', `${root} → ${dir}`);
      }
    }
  });
});
