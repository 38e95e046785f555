/**
 * The allow-list of programs (rules §1.1 step 5), each with its argv grammar (step 7). A program
 * is allowed exactly when a grammar file names it. To add one, write its grammar in a file of its
 * own (or in its family's file, which then needs nothing more) and add that file's line to
 * `registry.ts`; `test/gate/grammars.test.ts` checks that every program of every file is found,
 * and the corpora say whether the grammar holds. A program's grammar is built the first time it
 * is asked for, and that same grammar is returned from then on.
 */
import * as registry from './registry';
import type { Grammar, Grammars } from './types';

/** The function that builds each allowed program's grammar, by name, from the files of the registry. */
const BUILDERS: ReadonlyMap<string, () => Grammar> = byProgram(Object.values(registry));

/** The grammars built so far, by program name. */
const BUILT = new Map<string, Grammar>();

/** Every program of `files` with its builder; a program named by two files is an error. */
export function byProgram(files: readonly Grammars[]): Map<string, () => Grammar> {
  const out = new Map<string, () => Grammar>();
  for (const file of files) {
    for (const [program, build] of Object.entries(file)) {
      if (out.has(program)) throw new Error(`two grammar files name the program '${program}'`);
      out.set(program, build);
    }
  }
  return out;
}

/** The grammar of an allowed program, or undefined when the program is not allowed. */
export function grammarOf(program: string): Grammar | undefined {
  const built = BUILT.get(program);
  if (built !== undefined) return built;
  const build = BUILDERS.get(program);
  if (build === undefined) return undefined;
  const grammar = build();
  BUILT.set(program, grammar);
  return grammar;
}

/** The allowed programs, sorted (for messages and the README). */
export function allowedPrograms(): string[] {
  return [...BUILDERS.keys()].sort();
}
