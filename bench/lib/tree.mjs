// A generated source tree for the search benchmark: 50,000 files of TypeScript-like text whose
// content is a pure function of the file's index (a seeded PRNG), so every machine searches the
// same bytes. It is generated once into the OS temp folder and reused while its marker matches.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const TREE_VERSION = 1;
export const TREE_FILES = 50_000;
/** Every RARE_EVERY-th file holds one line matching RARE_PATTERN. */
export const RARE_EVERY = 500;
export const RARE_PATTERN = 'planwiseNeedle_[0-9]+';
/** Matches nothing in the tree (the text never contains this identifier). */
export const NO_MATCH_PATTERN = 'zzNeverPresentIdentifier[0-9]+';

const WORDS = [
  'value',
  'index',
  'result',
  'config',
  'handler',
  'request',
  'response',
  'buffer',
  'state',
  'event',
  'count',
  'offset',
  'length',
  'source',
  'target',
  'reader',
  'writer',
  'parser',
  'token',
  'option',
  'items',
  'entry',
  'cache',
  'limit',
  'error',
  'signal',
  'stream',
  'folder',
  'record',
  'message',
];

/** mulberry32: a small deterministic PRNG. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The content of file number `i`: 20 to 50 lines, about 1 KB. */
export function fileContent(i) {
  const rand = prng(i * 2654435761 + 1);
  const word = () => WORDS[Math.floor(rand() * WORDS.length)];
  const lines = [`// generated file ${i}`, `export function ${word()}${i}(${word()}: number): number {`];
  const body = 18 + Math.floor(rand() * 31);
  for (let l = 0; l < body; l++) {
    lines.push(`  const ${word()}${l} = ${word()}.${word()}(${Math.floor(rand() * 1000)}) + ${word()}Of(${l});`);
  }
  if (i % RARE_EVERY === 0) lines.splice(3, 0, `  // planwiseNeedle_${i} marks this file for the search benchmark`);
  lines.push('  return 0;', '}', '');
  return lines.join('\n');
}

/** Relative path of file `i`: packages of 10 modules x 100 files (50 packages in the 50,000-file tree). */
export function filePath(i) {
  const pkg = Math.floor(i / 1000);
  const mod = Math.floor((i % 1000) / 100);
  return path.join(`pkg${pkg}`, `mod${mod}`, `file${i % 100}.ts`);
}

/**
 * The tree's folder, generating it first when it is missing or from another version. `files`
 * other than TREE_FILES makes a tree of its own (`…-v1-100000`); file i is the same in every size.
 */
export function ensureTree(log = () => {}, files = TREE_FILES) {
  const suffix = files === TREE_FILES ? '' : `-${files}`;
  const root = path.join(os.tmpdir(), `planwise-bench-tree-v${TREE_VERSION}${suffix}`);
  const marker = path.join(root, '.complete');
  const expected = JSON.stringify({ version: TREE_VERSION, files });
  if (existsSync(marker) && readFileSync(marker, 'utf8') === expected) return root;
  log(`generating ${files} files into ${root} (once; reused by later runs)`);
  rmSync(root, { recursive: true, force: true });
  const made = new Set();
  for (let i = 0; i < files; i++) {
    const file = path.join(root, filePath(i));
    const dir = path.dirname(file);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    writeFileSync(file, fileContent(i));
  }
  writeFileSync(marker, expected);
  return root;
}
