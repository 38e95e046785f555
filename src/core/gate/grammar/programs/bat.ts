/**
 * bat 0.2x (`batcat` on Debian). Operands are files. Refused: a pager or preprocessor program
 * (`--pager`, `--paging` other than never, `--lessopen`), and what writes (`bat cache`,
 * `--generate-config-file`).
 */
import { flags, refused, terminal, valued, table } from '../kit';
import type { Grammar, Grammars } from '../types';

const bat = (): Grammar => ({
  name: 'bat',
  options: table(
    flags('-A --show-all -p --plain -P -d --diff -S --chop-long-lines -n --number -f --force-colorization'),
    flags('--list-themes -L --list-languages -u --unbuffered --diagnostic --acknowledgements --config-file'),
    flags('--config-dir --cache-dir --no-config --no-custom-assets --no-lessopen -s --squeeze-blank'),
    flags('--set-terminal-title'),
    valued('text', '-l --language -H --highlight-line --file-name -m --map-syntax --ignored-suffix'),
    valued('text', '--theme --theme-light --theme-dark --style -r --line-range --terminal-width --paging'),
    valued('number', '--diff-context --tabs --squeeze-limit'),
    valued(['auto', 'never', 'character'], '--wrap'),
    valued(['auto', 'never', 'always'], '--color --decorations --strip-ansi'),
    valued(['always', 'never'], '--italic-text'),
    valued(['unicode', 'caret'], '--nonprintable-notation'),
    valued(['no-printing', 'as-text'], '--binary'),
    valued(['bash', 'fish', 'zsh', 'ps1'], '--completion'),
    refused('runs a pager program', '--pager'),
    refused('runs the LESSOPEN preprocessor program', '--lessopen'),
    refused('writes a configuration file', '--generate-config-file'),
    terminal('-h --help -V --version'),
  ),
  check: (state) => {
    if (state.positionals[0] === 'cache') {
      return { rule: 'option', reason: "'bat cache' writes bat's syntax and theme cache" };
    }
    const paging = state.values.get('--paging')?.find((v) => v !== 'never');
    if (paging !== undefined) {
      return { rule: 'option', reason: `'bat --paging=${paging}' may start a pager; use --paging=never or -P` };
    }
    return null;
  },
});

/** The programs of this file, by name, each with the function that builds its grammar. */
export const grammars: Grammars = { bat };
