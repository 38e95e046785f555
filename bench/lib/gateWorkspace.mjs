// A generated workspace for the gate benchmark: the gate resolves every path on the real file
// system, so the corpus is judged where its files exist (every word that looks like a relative
// path becomes a file, its folders folders), with a home folder and a symlink that leaves it.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const PATHISH = /^[A-Za-z0-9_.][A-Za-z0-9_./-]*\.[A-Za-z0-9]+$/;

export function gateWorkspace(commands) {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'planwise-bench-gate-')));
  const root = path.join(base, 'project');
  const home = path.join(base, 'home');
  for (const dir of ['src', 'test', 'docs', 'sub/deep', 'a/b', 'd0', home, path.join(base, 'outside')]) {
    mkdirSync(path.isAbsolute(dir) ? dir : path.join(root, dir), { recursive: true });
  }
  for (const c of commands) {
    for (const word of c.split(/[\s'"|;&]+/)) {
      if (!PATHISH.test(word) || word.includes('..') || word.startsWith('.')) continue;
      const p = path.join(root, word);
      mkdirSync(path.dirname(p), { recursive: true });
      try {
        writeFileSync(p, 'x\n', { flag: 'wx' });
      } catch {
        // already there, or a folder of another word
      }
    }
  }
  symlinkSync(path.join(base, 'outside'), path.join(root, 'link'));
  return { root, home, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}
