/**
 * The allow-list of programs (rules §1.1 step 5), each with its argv grammar (step 7). A program
 * is allowed exactly when `registry.ts` names it. To add one, write its grammar in a file of
 * programs/ (its own, or its family's) under the file's `grammars`, and add the program's line to
 * the registry; `test/gate/grammars.test.ts` checks that the registry and the files name the same
 * programs, and the corpora say whether the grammar holds. A program's grammar is built the first
 * time it is asked for, and that same grammar is returned from then on.
 */
import { PROGRAMS } from './registry';
import type { Grammar } from './types';

/** The file of each allowed program, by name (a Map: no inherited names). */
const FILES: ReadonlyMap<string, () => Readonly<Record<string, () => Grammar>>> = new Map(Object.entries(PROGRAMS));

/** The grammars built so far, by program name. */
const BUILT = new Map<string, Grammar>();

/** Whether `program` is allowed, without loading its grammar. */
export function isAllowed(program: string): boolean {
  return FILES.has(program);
}

/** The grammar of an allowed program, or undefined when the program is not allowed. */
export function grammarOf(program: string): Grammar | undefined {
  const built = BUILT.get(program);
  if (built !== undefined) return built;
  const file = FILES.get(program);
  if (file === undefined) return undefined;
  const grammars = file();
  const build = Object.hasOwn(grammars, program) ? grammars[program] : undefined;
  if (build === undefined) throw new Error(`the grammar file of '${program}' does not name it`);
  const grammar = build();
  BUILT.set(program, grammar);
  return grammar;
}

/** The allowed programs, sorted (for messages and the README). */
export function allowedPrograms(): string[] {
  return [...FILES.keys()].sort();
}
