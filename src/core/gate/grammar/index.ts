/**
 * The allow-list of programs (rules §1.1 step 5), each with its argv grammar (step 7). A program
 * is allowed exactly when a grammar file names it. To add one, write its grammar in a file of its
 * own (or in its family's file, which then needs nothing more) and add that file's line to
 * `registry.ts`; `test/gate/grammars.test.ts` checks that every program of every file is found,
 * and the corpora say whether the grammar holds.
 */
import * as registry from './registry';
import type { Grammar } from './types';

/** Every allowed program's grammar, by name, from the files of the registry. */
const GRAMMARS: ReadonlyMap<string, Grammar> = byProgram(Object.values(registry));

function byProgram(files: readonly Readonly<Record<string, Grammar>>[]): Map<string, Grammar> {
  const out = new Map<string, Grammar>();
  for (const file of files) {
    for (const [program, grammar] of Object.entries(file)) {
      if (out.has(program)) throw new Error(`two grammar files name the program '${program}'`);
      out.set(program, grammar);
    }
  }
  return out;
}

/** The grammar of an allowed program, or undefined when the program is not allowed. */
export function grammarOf(program: string): Grammar | undefined {
  return GRAMMARS.get(program);
}

/** The allowed programs, sorted (for messages and the README). */
export function allowedPrograms(): string[] {
  return [...GRAMMARS.keys()].sort();
}
