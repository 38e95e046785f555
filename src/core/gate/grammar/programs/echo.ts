/**
 * Grammars of the shell's printing builtins and no-ops: echo, printf, pwd, true, false. Commands
 * run under /bin/sh, whose echo has no unknown options: every word after the leading -n/-e/-E
 * flags is printed, `--` and `--foo` included.
 */
import { allText, flags, HELP_VERSION, refused, table } from '../kit';
import type { ArgKind, CustomParse, Grammar, Grammars } from '../types';

const ECHO_FLAGS = /^-[neE]+$/;

function echoWords(args: readonly string[]): CustomParse {
  let leading = true;
  const kinds: ArgKind[] = args.map((a) => {
    if (leading && ECHO_FLAGS.test(a)) return { kind: 'option', option: a.slice(0, 2) };
    leading = false;
    return { kind: 'text' };
  });
  return { ok: true, kinds };
}

const echo = (): Grammar => ({ name: 'echo', options: {}, custom: echoWords });

/** bash's printf: `-v VAR` assigns to a shell variable; the format and its arguments are text. */
const printf = (): Grammar => ({
  name: 'printf',
  options: table(refused('assigns the output to a shell variable instead of printing it', '-v'), HELP_VERSION),
  optionsFirst: true,
  positional: allText,
});

const pwd = (): Grammar => ({
  name: 'pwd',
  options: table(flags('-L -P'), HELP_VERSION),
  positional: () => null,
});

/** `true` and `false` ignore their arguments. */
function ignoreWords(args: readonly string[]): CustomParse {
  return { ok: true, kinds: args.map((): ArgKind => ({ kind: 'text' })) };
}

const trueGrammar = (): Grammar => ({ name: 'true', options: {}, custom: ignoreWords });
const falseGrammar = (): Grammar => ({ name: 'false', options: {}, custom: ignoreWords });

/** The programs of this file, by name, each with the function that builds its grammar. */
export const grammars: Grammars = {
  echo,
  printf,
  pwd,
  true: trueGrammar,
  false: falseGrammar,
};
