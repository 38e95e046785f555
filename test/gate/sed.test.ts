/** The sed script reader behind rules §1.1 step 7 (GNU sed syntax). */
import assert from 'node:assert/strict';
import { sedScriptProblem } from '../../src/core/gate/sed';

describe('gate: sed scripts', () => {
  const safe = [
    'p',
    '1,80p',
    '$p',
    '/^export/p',
    '\\%a/b%p',
    '1~2d',
    '0,/x/d',
    '/a/,+3p',
    '/a/,~4p',
    '/a/I,/b/Mp',
    's/a/b/',
    's/a/b/g',
    's/a/b/gI2p',
    's|a|b|g',
    's/[/]/x/',
    's/[[:space:]]\\+/ /g',
    's/\\//x/',
    'y/abc/xyz/',
    '1!G;h;$!d',
    '/x/{p;d}',
    '/x/ { s/a/b/ ; p }',
    ':a;N;$!ba;s/\\n/ /g',
    'a\\\nappended w out',
    'a text ; w out',
    'i\\\nline one\\\nline two',
    '# comment w out\np',
    'l 40',
    'q5',
    '=',
    'F',
    'z',
    'n;N;D;P;x;g;G;h;H',
    'T end; t; b',
    'b end\np\n:end',
  ];
  for (const script of safe) {
    it(`accepts ${JSON.stringify(script)}`, () => {
      assert.equal(sedScriptProblem(script), null);
    });
  }

  const refused: Array<[string, string]> = [
    ['w out', "'w' command"],
    ['W out', "'W' command"],
    ['r /etc/passwd', "'r' command"],
    ['R other', "'R' command"],
    ['e date', "'e' command"],
    ['1e date', "'e' command"],
    ['/x/w out', "'w' command"],
    ['$!{h;d};x;w out', "'w' command"],
    ['1,5{\nw out\n}', "'w' command"],
    ['p;w out', "'w' command"],
    ['y/a/b/;w out', "'w' command"],
    ['s/a/b/w out', "'w' flag"],
    ['s/a/b/gw out', "'w' flag"],
    ['s/a/b/e', "'e' flag"],
    ['s/a/b/2e', "'e' flag"],
    ['s|a|b|w out', "'w' flag"],
    ['s/[/]/x/w out', "'w' flag"],
    ['a one\\\ntwo\nw out', "'w' command"],
    ['b l e date', "'e' command"],
    [':l R x', "'R' command"],
    ['t x w out', "'w' command"],
    ['sxaxbxw out', 'unusual delimiter'],
    ['s/a/b', 'could not be parsed'],
    ['s/a/b/x', "unknown flag 'x'"],
    ['k', "unknown command 'k'"],
    ['1', 'could not be parsed'],
    ['p x', 'could not be parsed'],
  ];
  for (const [script, why] of refused) {
    it(`refuses ${JSON.stringify(script)}`, () => {
      const problem = sedScriptProblem(script);
      assert.ok(problem?.includes(why), `${JSON.stringify(problem)} should mention ${why}`);
    });
  }
});
