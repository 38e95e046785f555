/**
 * The `test` builtin. Its words are an expression, not options: strings and numbers are text,
 * except the operand after a file operator (`-e FILE`, `-f FILE`, `-L FILE`, …) and both sides of
 * `-nt`, `-ot` and `-ef`, which name files and are checked as paths. A word is read as a file
 * whenever it could be one (`test -e x -a -f y` makes `-f` and `y` both paths), because a file
 * read as text would go unchecked while text read as a file only costs a path check.
 */
import type { ArgKind, CustomParse, Grammar, Grammars } from '../types';

/** Unary operators whose operand is a file (`-a` is also the binary "and"). */
const FILE_UNARY = new Set('-a -b -c -d -e -f -g -G -h -k -L -N -O -p -r -s -S -u -w -x'.split(' '));
const FILE_BINARY = new Set(['-nt', '-ot', '-ef']);
const OPERATORS = new Set([
  ...FILE_UNARY,
  ...FILE_BINARY,
  ...'-t -z -n -o -v -R ! ( ) = == != < > -eq -ne -lt -le -gt -ge'.split(' '),
]);

function testWords(args: readonly string[]): CustomParse {
  const kinds: ArgKind[] = args.map((w, k) => {
    const before = k > 0 ? (args[k - 1] as string) : '';
    const after = args[k + 1] ?? '';
    if (FILE_UNARY.has(before)) return { kind: 'path', option: before };
    if (FILE_BINARY.has(before)) return { kind: 'path', option: before };
    if (FILE_BINARY.has(after)) return { kind: 'path', option: after };
    return OPERATORS.has(w) ? { kind: 'option', option: w } : { kind: 'text' };
  });
  return { ok: true, kinds };
}

const test = (): Grammar => ({ name: 'test', options: {}, custom: testWords });

/** The programs of this file, by name, each with the function that builds its grammar. */
export const grammars: Grammars = { test };
