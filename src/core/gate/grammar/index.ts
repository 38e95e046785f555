/**
 * The allow-list of programs (rules §1.1 step 5), each with its argv grammar (step 7). A program
 * is allowed exactly when it is listed here. To add one, write its grammar in a file of its own
 * (or its family's) in this folder, add it to that file's one export, `grammars` (keyed by program
 * name), and give it a case in `familyOf` below (a new file also names one of its programs in
 * `ONE_PROGRAM_PER_FILE`);
 * `test/gate/grammars.test.ts` checks that every program of every file is found, and the corpora
 * say whether the grammar holds.
 *
 * Each family's file is loaded when the gate first judges one of its programs, not when the gate
 * loads: the option tables are a good share of a short `planwise check-command`'s start, and
 * `check-command -- ls` needs only `ls.ts`.
 * In a bundle, esbuild turns each `require` below into a module initialised on first call.
 */
import { own } from './kit';
import type { Grammar } from './types';
import type * as M_astGrep from './astGrep';
import type * as M_bat from './bat';
import type * as M_cargo from './cargo';
import type * as M_diff from './diff';
import type * as M_echo from './echo';
import type * as M_fd from './fd';
import type * as M_find from './find';
import type * as M_git from './git';
import type * as M_grep from './grep';
import type * as M_info from './info';
import type * as M_jq from './jq';
import type * as M_ls from './ls';
import type * as M_packageManagers from './packageManagers';
import type * as M_rg from './rg';
import type * as M_sed from './sed';
import type * as M_test from './test';
import type * as M_text from './text';
import type * as M_tree from './tree';

type Family = Readonly<Record<string, Grammar>>;

/* eslint-disable @typescript-eslint/no-require-imports -- lazy loading; see above */
/**
 * The grammars of the file that holds `program`, loading it on first use. A switch, so loading the
 * gate builds nothing here: no table of sixty closures, and each file has one export (`grammars`),
 * as esbuild gives every export of a lazily required file an accessor when the gate loads.
 */
function familyOf(program: string): Family | undefined {
  switch (program) {
    // Search and listing.
    case 'rg':
      return (require('./rg') as typeof M_rg).grammars;
    case 'grep':
    case 'egrep':
    case 'fgrep':
      return (require('./grep') as typeof M_grep).grammars;
    case 'find':
      return (require('./find') as typeof M_find).grammars;
    case 'fd':
      return (require('./fd') as typeof M_fd).grammars;
    case 'ls':
      return (require('./ls') as typeof M_ls).grammars;
    case 'tree':
      return (require('./tree') as typeof M_tree).grammars;
    // Reading and text.
    case 'cat':
    case 'head':
    case 'tail':
    case 'wc':
    case 'sort':
    case 'uniq':
    case 'cut':
    case 'tr':
    case 'nl':
    case 'column':
      return (require('./text') as typeof M_text).grammars;
    case 'bat':
      return (require('./bat') as typeof M_bat).grammars;
    case 'diff':
      return (require('./diff') as typeof M_diff).grammars;
    case 'sed':
      return (require('./sed') as typeof M_sed).grammars;
    case 'ast-grep':
      return (require('./astGrep') as typeof M_astGrep).grammars;
    case 'jq':
      return (require('./jq') as typeof M_jq).grammars;
    case 'echo':
    case 'printf':
    case 'pwd':
    case 'true':
    case 'false':
      return (require('./echo') as typeof M_echo).grammars;
    // Facts about files and the system.
    case 'test':
      return (require('./test') as typeof M_test).grammars;
    case 'which':
    case 'stat':
    case 'file':
    case 'du':
    case 'df':
    case 'realpath':
    case 'basename':
    case 'dirname':
    case 'date':
    case 'whoami':
    case 'uname':
      return (require('./info') as typeof M_info).grammars;
    // Version control and the project's own tests (trusted workspaces only for the latter).
    case 'git':
      return (require('./git') as typeof M_git).grammars;
    case 'npm':
    case 'pnpm':
    case 'yarn':
      return (require('./packageManagers') as typeof M_packageManagers).grammars;
    case 'cargo':
      return (require('./cargo') as typeof M_cargo).grammars;
    default:
      return undefined;
  }
}

/* eslint-enable @typescript-eslint/no-require-imports */

/** One program of each grammar file: through `familyOf`, every file, for the list of allowed programs. */
const ONE_PROGRAM_PER_FILE = 'ast-grep bat cargo cat diff echo fd find git grep jq ls npm rg sed test tree which';

const loaded = new Map<string, Grammar>();

/** The grammar of an allowed program, or undefined when the program is not allowed. */
export function grammarOf(program: string): Grammar | undefined {
  let grammar = loaded.get(program);
  if (grammar === undefined) {
    grammar = own(familyOf(program), program);
    if (grammar === undefined) return undefined;
    loaded.set(program, grammar);
  }
  return grammar;
}

/**
 * The allowed programs, sorted (for messages and the README): every program some grammar file
 * names that `grammarOf` also finds, so a file's program missing from the switch is not listed.
 */
export function allowedPrograms(): string[] {
  return ONE_PROGRAM_PER_FILE.split(' ')
    .map((p) => familyOf(p) ?? {})
    .flatMap((f) => Object.keys(f))
    .filter((p) => grammarOf(p) !== undefined)
    .sort();
}
