/**
 * Hand cases for `sedScriptProblem` (the GNU sed 4.9 script analyzer of the read-only gate), one or
 * more per construct of the grammar, allowed and refused. A case given as an array is several `-e`
 * values, which the analyzer gets joined by newlines. The last block checks every case against the
 * real GNU sed in `--sandbox` mode, which rejects exactly the e/r/w commands and flags.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sedScriptProblem } from '../../src/core/gate/sedScript';

type Case = string | string[];
const joined = (c: Case) => (Array.isArray(c) ? c.join('\n') : c);
const shown = (c: Case) => (Array.isArray(c) ? c.map((e) => `-e ${JSON.stringify(e)}`).join(' ') : JSON.stringify(c));

const ALLOWED: Case[] = [
  // addresses
  ...['p', '1,80p', '$p', '$!N', '/^export/p', '\\%a/b%p', '\\;x;p', '\\%a\\%b%p', '/a/I,/b/Mp', '/x/ I p'],
  ...['1~2d', '0~3p', '2~0p', '1 ~ 2p', '0,/x/d', '0,\\%x%d', '/a/,+3p', '/a/,~4p', '1,$p', '1 , 3 p'],
  ...['1,+p', '+p', '~0p', '1!p', '1! p', '1 !p', '!p', '/a\\/b/p'],
  // s: delimiters, escapes, bracket expressions, newlines in the replacement, flags
  ...['s/a/b/', 's/a/b/g', 's/a/b/gI2p', 's/a/b/ g p', 's/a/b/i', 's/a/b/mM', 's|a|b|g', 's,a,b,', 's#a#b#'],
  ...['s/[/]/x/', 's/[[:alpha:]/]/x/', 's/[]/]/x/', 's/[^/]*/x/', 's/[[.-.]/]/x/', 's/[\\]/x/', 's/\\//x/'],
  ...['s/a/b\\\nc/', 's\\a\\b\\', 's[a[b[', 'sxaxbx', 's a b ', 's/a/b/#w x', 's/a/b/;#w x', '/x/{s/a/b/}'],
  ...['s/a/w x/', 's/w x/y/', 's/a/b/\r\np', 's/a/b/;p', 's/a/&&/3'],
  // y
  ...['y/abc/xyz/', 'y/a\\/b/x\\/y/', 'y,a\\,b,x\\,y,', 'y/\\n/x/', 'y/[/]/', 'y/abc/xyz/ ;p'],
  // blocks and separators
  ...['/x/{p;d}', '/x/ { s/a/b/ ; p }', '{p};p', '{{p}}', '0,/re/!{p;d}', '1,3!{\np\n}', '{p}\n;;\n', '{p # }\n}'],
  // labels and jumps
  ...[':a;N;$!ba;s/\\n/ /g', ':x#c\nbx', 'b end\np\n:end', 'bx;:x', 'b;p', 't', 'T', '{b}', '{:a}', ': a ;b a'],
  ...[':a\tp', ':a p', 'b a#c\n:a', ':a;:a', ':x{\nbx{'],
  // a, i, c: the one-line form and the a\ + text lines form
  ...['a hello', 'a text ; w out', '1a  lead', 'a\\\nappended w out', 'a\\text', 'a\\ w x', '$a\\'],
  ...['i\\\nline one\\\nline two', 'c\\\nchanged', 'a foo\\\nw x', 'a\\\n  w x', 'i\\\n\\\nw x', 'a }'],
  // comments
  ...['# comment w out\np', '#n\np', 'p # w x', 'p;# w x\n', '!#c', 'p#w x'],
  // other commands
  ...['l', 'l 40', 'l5', 'q', 'q5', 'Q 1', '=', 'F', 'z', 'n;N;D;P;x;g;G;h;H', 'L', 'v', 'v 4.2', 'v;p', '1v'],
  // several -e values, joined by newlines as GNU sed joins them
  ['a\\', 'w x'],
  ['i foo\\', 'w x'],
  ['{', 'p', '}'],
  ['b x', ':x'],
  ['s/a/b/', 'p'],
];

const REFUSED: Array<[Case, string]> = [
  ['w out', "the 'w' command writes a file"],
  ['W out', "the 'W' command writes a file"],
  ['r /etc/passwd', "the 'r' command reads another file"],
  ['R other', "the 'R' command reads another file"],
  ['e date', "the 'e' command runs shell commands"],
  ['e', "the 'e' command runs shell commands"],
  ['1e date', "'e' command"],
  ['w /dev/stdout', "'w' command"],
  ['w /dev/stderr', "'w' command"],
  ['r /dev/stdin', "'r' command"],
  // addresses and blocks
  ...(['/x/w out', '$!{h;d};x;w out', '1,5{\nw out\n}', '{p;w x}', '1~3w x', '0,/re/w x', 'p;w out'].map((s) => [
    s,
    "'w' command",
  ]) as Array<[string, string]>),
  ...(['y/abc/xyz/;w out', '1!w x', '1! w x', '/a/I,/b/M W x', '0r x', '$!R x'].map((s) => [s, 'command']) as Array<
    [string, string]
  >),
  // s flags
  ['s/a/b/w out', "the 's' command's 'w' flag writes a file"],
  ['s/a/b/gw out', "'w' flag"],
  ['s/a/b/ w out', "'w' flag"],
  ['s/a/b/w /dev/stdout', "'w' flag"],
  ['s/[/]/x/w out', "'w' flag"],
  ['s/a/b\\\nc/w x', "'w' flag"],
  ['s\\a\\b\\w x', "'w' flag"],
  ['sxaxbxw out', "'w' flag"],
  ['s|a|b|e', "the 's' command's 'e' flag runs the pattern space as a command"],
  ['s/a/b/e', "'e' flag"],
  ['s/a/b/2e', "'e' flag"],
  ['s/a/b/ep', "'e' flag"],
  // labels end at a blank, ';', '}', '#' or newline, and the next command follows at once
  [':x# a\\\nw out.txt', "'w' command"],
  [':x w f', "'w' command"],
  [':x;w f', "'w' command"],
  [':x\tw f', "'w' command"],
  ['{:x};w f', "'w' command"],
  ['b x w f', "'w' command"],
  ['t x;w f', "'w' command"],
  ['T x#c\nw f', "'w' command"],
  ['bx# a\\\nw f', "'w' command"],
  ['v 4.2 w f', "'w' command"],
  // a, i, c texts end where GNU sed ends them
  ['1a\\  \nw f', "'w' command"], // a\ + blanks: the blanks are the text, the line ends it
  ['1a\\\\\nw f', "'w' command"], // a\\: the second backslash is the text's first character, not an escape
  ['a\nw f', "'w' command"], // 'a' then a newline: empty text
  ['a foo\nw f', "'w' command"],
  ['a foo\\\\\nw f', "'w' command"], // an escaped backslash does not continue the line
  ['a\\\nfoo\nw f', "'w' command"],
  ['i\\\nl1\\\nl2\nw f', "'w' command"],
  ['c\\\nx\nr f', "'r' command"],
  // comments end at the newline
  ['# x\nw f', "'w' command"],
  ['s/a/b/#c\nw f', "'w' command"],
  ['p # c\nW f', "'W' command"],
  // several -e values
  [['a foo', 'w x'], "'w' command"],
  [['1a\\  ', 'w x'], "'w' command"],
  [['s/a/b/', 'w x'], "'w' command"],
  [['p', 'r f'], "'r' command"],
  [[':x', 'bx', 'e'], "'e' command"],
];

const UNPARSED = 'the script could not be parsed the way GNU sed parses it';
/** Refused as unparsable; all but the last few are errors for GNU sed too. */
const UNPARSABLE: Case[] = [
  ...['s/a/b', 's/a/b/x', 's/a/b/pp', 's/a/b/gg', 's/a/b/0', 's/a/b/1 2', 's/a/b/\rp', 's', 's/a', '/a', '\\'],
  ...['k', '1', 'p x', 'px', '1!!p', '1! !p', '0p', '0,5p', '+3p', '1,2q', ':', ': ;p', '1:a', '1#c', '}', '1}'],
  ...['{p', '{p}}', '{p}p', 'bx', 'y/abc/xyz/p', 'y/abc/', 'a', '1a', 'p\r', 's/a\nb/', 'p;{', '1,'],
  // refused although GNU sed may take them: a non-ASCII delimiter or label (locale-dependent reading)
  ...['s\u00e9a\u00e9b\u00e9', ':a\u00a0w x', 'b \u00e9t'],
];
const SED_MAY_ACCEPT = new Set([':a\u00a0w x']);

describe('gate: GNU sed script analyzer (sedScriptProblem)', () => {
  for (const c of ALLOWED) {
    it(`allows ${shown(c)}`, () => {
      assert.equal(sedScriptProblem(joined(c)), null);
    });
  }
  for (const [c, why] of REFUSED) {
    it(`refuses ${shown(c)}: ${why}`, () => {
      const problem = sedScriptProblem(joined(c));
      assert.ok(problem?.includes(why), `${JSON.stringify(problem)} should mention ${JSON.stringify(why)}`);
    });
  }
  for (const c of UNPARSABLE) {
    it(`refuses ${shown(c)} as unparsable`, () => {
      const problem = sedScriptProblem(joined(c));
      assert.ok(problem?.startsWith(`${UNPARSED} (`), String(problem));
    });
  }
  it('refuses a NUL character', () => {
    assert.ok(sedScriptProblem('p\0w x')?.startsWith(UNPARSED));
  });
  it('names the place of a parse problem', () => {
    assert.equal(sedScriptProblem('p;s/a/b'), `${UNPARSED} (unterminated 's' command, at char 7)`);
    assert.equal(sedScriptProblem('1!!p'), `${UNPARSED} (multiple '!'s, at char 3)`);
  });

  describe('every hand case agrees with the real GNU sed (--sandbox)', () => {
    let dir = '';
    let input = '';
    before(() => {
      const version = spawnSync('/bin/sed', ['--version'], { encoding: 'utf8' }).stdout ?? '';
      assert.match(version, /^\S*sed \(GNU sed\) \d/, '/bin/sed must be GNU sed (CI has it): this fails, not skips');
      dir = mkdtempSync(join(tmpdir(), 'planwise-sedcase-'));
      input = join(dir, 'empty.txt');
      writeFileSync(input, ''); // empty input: the script is compiled, never run
    });
    after(() => rmSync(dir, { recursive: true, force: true }));
    const env: NodeJS.ProcessEnv = { ...process.env, LC_ALL: 'C.UTF-8' };
    delete env.POSIXLY_CORRECT;
    const sandbox = (c: Case): string => {
      const expressions = (Array.isArray(c) ? c : [c]).flatMap((e) => ['-e', e]);
      const r = spawnSync('/bin/sed', ['--sandbox', '-n', ...expressions, input], {
        cwd: dir,
        encoding: 'utf8',
        env,
        timeout: 5000,
      });
      return r.stderr ?? '';
    };
    it('GNU sed accepts the allowed cases', () => {
      const rejected = ALLOWED.filter((c) => sandbox(c) !== '').map(shown);
      assert.deepEqual(rejected, []);
    });
    it('GNU sed --sandbox rejects the refused cases as e/r/w', () => {
      const notErw = REFUSED.filter(([c]) => !sandbox(c).includes('e/r/w commands disabled in sandbox mode'));
      assert.deepEqual(
        notErw.map(([c]) => shown(c)),
        [],
      );
    });
    it('GNU sed reports an error for the unparsable cases (but the locale-dependent ones)', () => {
      const accepted = UNPARSABLE.filter((c) => !SED_MAY_ACCEPT.has(joined(c)) && sandbox(c) === '').map(shown);
      assert.deepEqual(accepted, []);
    });
  });
});
