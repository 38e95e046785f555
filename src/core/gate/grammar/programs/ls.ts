/** The grammar of GNU ls (coreutils 9.1). Refused: what follows symlinks while descending (`ls -L`). */
import { flags, following, GNU_WHEN, HELP_VERSION, valued, table } from '../kit';
import type { Grammar, Grammars } from '../types';

const ls = (): Grammar => ({
  name: 'ls',
  options: table(
    flags('-a --all -A --almost-all --author -b --escape -B --ignore-backups -c -C -d --directory -D --dired -f'),
    flags('-F --file-type --full-time -g --group-directories-first -G --no-group -h --human-readable --si'),
    flags('-H --dereference-command-line --dereference-command-line-symlink-to-dir -i --inode -k --kibibytes'),
    flags('-l -m -n --numeric-uid-gid -N --literal -o -p -q --hide-control-chars --show-control-chars'),
    flags('-Q --quote-name -r --reverse -R --recursive -s --size -S -t -u -U -v -x -X -Z --context --zero -1'),
    valued(GNU_WHEN, '--color --classify --hyperlink', true),
    {
      '--format': { value: ['across', 'commas', 'horizontal', 'long', 'single-column', 'verbose', 'vertical'] },
      '--indicator-style': { value: ['none', 'slash', 'file-type', 'classify'] },
      '--quoting-style': {
        value: ['literal', 'locale', 'shell', 'shell-always', 'shell-escape', 'shell-escape-always', 'c', 'escape'],
      },
      '--sort': { value: ['none', 'size', 'time', 'version', 'extension', 'width', 'name'] },
      '--time': { value: ['atime', 'access', 'use', 'ctime', 'status', 'birth', 'creation', 'mtime', 'modification'] },
    },
    valued('pattern', '--hide -I --ignore'),
    valued('text', '--block-size --time-style'),
    valued('number', '-T --tabsize -w --width'),
    following('use ls without -L (it lists symlinks themselves)', '-L --dereference'),
    HELP_VERSION,
  ),
});

/** The programs of this file, by name, each with the function that builds its grammar. */
export const grammars: Grammars = { ls };
