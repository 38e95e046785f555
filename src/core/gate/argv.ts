/**
 * Reads a program's arguments against its grammar (rules §1.1 step 7), the way getopt and git's
 * own parsers read them: bundled short flags (`-rn`), attached values (`-A3`, `-ofile`,
 * `--opt=value`), separate values, `--`, and subcommands with their own grammars. Unknown means
 * refused; a value is always consumed by its option, so it can never be read as a subcommand.
 * Linear in the number of words.
 */
import { own } from './grammar/kit';
import type { ArgKind, ArgvState, Grammar, OptionSpec, ValueKind } from './grammar/types';
import type { WordKind } from './types';

export interface ArgWord {
  readonly kind: WordKind;
  /** The option this word is, or belongs to as its value. */
  readonly option?: string;
  /** A value inside the option's own word (`--from-file=x`, `-fx`), with its kind. */
  readonly attached?: { readonly kind: WordKind; readonly text: string };
}

export type ArgvResult =
  | {
      readonly ok: true;
      /** One entry per argument, in order. */
      readonly words: readonly ArgWord[];
      /** The subcommand path (`log`, `nextest run`), when the program has subcommands. */
      readonly subcommand?: string;
      /** Whether the grammar reached runs project code. */
      readonly projectCode: boolean;
      /** Safe-mode insertions the grammars reached ask for. */
      readonly safeMode?: NonNullable<Grammar['safeMode']>;
      /** Options to insert after the argument at index `after` (a subcommand's word). */
      readonly inserts?: readonly Insert[];
    }
  | {
      readonly ok: false;
      readonly rule: string;
      readonly reason: string;
      /** The grammar reached so far runs project code (trust is judged before options). */
      readonly projectCode?: boolean;
      readonly subcommand?: string;
    };

type Fail = Extract<ArgvResult, { ok: false }>;

export interface Insert {
  readonly after: number;
  readonly text: string;
}

interface Pending {
  /** Where the positional's entry sits in the word list. */
  readonly at: number;
  readonly value: string;
  readonly afterDashDash: boolean;
}

const NUMBER = /^[+-]?\d+(\.\d+)?[A-Za-z]{0,3}$/;
const NUMERIC_OPTION = /^-\d+$/;

function fail(rule: string, reason: string): Fail {
  return { ok: false, rule, reason };
}

/** The word kind a value kind gives, or why the value does not fit. */
function kindOf(kind: ValueKind, value: string, what: string): WordKind | Fail {
  if (Array.isArray(kind)) {
    return kind.includes(value) ? 'text' : fail('value', `${what} takes one of ${kind.join(', ')}, not '${value}'`);
  }
  if (kind === 'number') return NUMBER.test(value) ? 'number' : fail('value', `${what} takes a number, not '${value}'`);
  if (kind === 'rev') return 'path';
  return kind as WordKind;
}

class Reader {
  readonly words: ArgWord[] = [];
  readonly subcommands: string[] = [];
  readonly inserts: Insert[] = [];
  projectCode = false;
  safeMode: Grammar['safeMode'];

  constructor(
    private readonly program: string,
    private readonly args: readonly string[],
  ) {}

  /** Reads `args[from..]` with grammar `g`; `label` names it in reasons (`git log`). */
  read(g: Grammar, from: number, label: string): Fail | null {
    if (g.projectCode) this.projectCode = true;
    if (g.safeMode) this.safeMode = g.safeMode;
    if (g.custom) return this.readCustom(g, from, label);
    const seen = new Set<string>();
    const values = new Map<string, string[]>();
    const positionals: string[] = [];
    const state: ArgvState = { seen, values, positionals, afterDashDash: false };
    void state.afterDashDash;
    let endOfOptions = false;
    let terminal: string | null = null;
    const pending: Pending[] = [];
    const args = this.args;
    for (let k = from; k < args.length; k++) {
      const w = args[k] as string;
      if (terminal !== null) return fail('option', `'${label} ${terminal}' takes nothing after it`);
      if (!endOfOptions && w === '--') {
        this.words.push({ kind: 'option', option: '--' });
        if (g.optionsAfterDashDash) continue;
        endOfOptions = true;
        (state as { afterDashDash: boolean }).afterDashDash = true;
        if (g.afterDashDash) {
          const bad = this.settle(g, state, pending, label) ?? this.read(g.afterDashDash, k + 1, `${label} --`);
          return bad ?? this.finish(g, state);
        }
        continue;
      }
      const optionsOpen = !endOfOptions && !(g.optionsFirst === true && positionals.length > 0);
      if (optionsOpen && w.length > 1 && w.charCodeAt(0) === 0x2d /* - */) {
        const r = w.startsWith('--') ? this.long(g, k, label, seen, values) : this.short(g, k, label, seen, values);
        if (typeof r !== 'number') return r;
        if (r < 0) terminal = w;
        k = Math.abs(r) - 1;
        continue;
      }
      if (g.subcommands && positionals.length === 0 && !endOfOptions) {
        const sub = own(g.subcommands, w);
        if (!sub) {
          const names = Object.keys(g.subcommands).join(', ');
          return fail('subcommand', `'${label} ${w}' is not a read-only ${label} command (allowed: ${names})`);
        }
        this.words.push({ kind: 'subcommand' });
        this.subcommands.push(w);
        if (sub.insert !== undefined) this.inserts.push({ after: k, text: sub.insert });
        const bad = this.settle(g, state, pending, label) ?? this.read(sub, k + 1, `${label} ${w}`);
        return bad ?? this.finish(g, state);
      }
      // The kind is decided once every option is known: GNU programs read options anywhere, so
      // `sed FILE -e SCRIPT` makes FILE a file, not the script.
      pending.push({ at: this.words.length, value: w, afterDashDash: endOfOptions });
      this.words.push({ kind: 'text' });
      positionals.push(w);
    }
    if (g.subcommands && g.subcommandRequired && terminal === null) {
      return fail('subcommand', `'${label}' needs a read-only subcommand (${Object.keys(g.subcommands).join(', ')})`);
    }
    return this.settle(g, state, pending, label) ?? this.finish(g, state);
  }

  /** Gives each pending positional its kind, now that every option before the hand-off is known. */
  private settle(g: Grammar, state: ArgvState, pending: readonly Pending[], label: string): Fail | null {
    for (let i = 0; i < pending.length; i++) {
      const p = pending[i] as Pending;
      const kind = g.positional ? g.positional(i, { ...state, afterDashDash: p.afterDashDash }) : 'path';
      if (kind === null) return fail('argument', `'${label}' takes no argument '${p.value}' here`);
      const wordKind = kindOf(kind, p.value, `'${label}'`);
      if (typeof wordKind !== 'string') return wordKind;
      this.words[p.at] = { kind: wordKind };
    }
    return null;
  }

  private finish(g: Grammar, state: ArgvState): Fail | null {
    const problem = g.check?.(state);
    return problem ? fail(problem.rule, problem.reason) : null;
  }

  private readCustom(g: Grammar, from: number, label: string): Fail | null {
    const r = (g.custom as NonNullable<Grammar['custom']>)(this.args.slice(from));
    if (!r.ok) return fail(r.rule, r.reason.replace('%s', label));
    for (const k of r.kinds as readonly ArgKind[])
      this.words.push(k.option ? { kind: k.kind, option: k.option } : { kind: k.kind });
    return null;
  }

  /** The refusal for a declared option, or null when it may be used. */
  private refusal(spec: OptionSpec, shown: string, label: string, where = ''): Fail | null {
    if (spec.follows) {
      return fail('follow', `'${label} ${shown}'${where} follows symlinks out of the workspace; ${spec.follows}`);
    }
    if (spec.refuse) return fail('option', `'${label} ${shown}'${where} ${spec.refuse}`);
    return null;
  }

  /** Records a value for `name`, checking its kind; returns the failure or null. */
  private value(
    spec: OptionSpec,
    name: string,
    value: string,
    label: string,
    values: Map<string, string[]>,
    attached: boolean,
  ): Fail | null {
    const kind = kindOf(spec.value as ValueKind, value, `'${label} ${name}'`);
    if (typeof kind !== 'string') return kind;
    if (attached) this.words[this.words.length - 1] = { kind: 'option', option: name, attached: { kind, text: value } };
    else this.words.push({ kind, option: name });
    const list = values.get(name);
    if (list) list.push(value);
    else values.set(name, [value]);
    return null;
  }

  /**
   * The value of option `name` at `args[k]`: `attached` when the word holds it (`--opt=v`, `-ov`),
   * else the next word (unless the value is optional). Returns the index after it, or a failure.
   */
  private optionValue(
    spec: OptionSpec,
    name: string,
    attached: string | null,
    k: number,
    label: string,
    values: Map<string, string[]>,
    w: string,
  ): number | Fail {
    if (attached !== null) {
      if (spec.separateValue) {
        return fail(
          'option',
          `'${label} ${name}' takes its value as a separate word ('${name} ${attached}'), not '${w}'`,
        );
      }
      return this.value(spec, name, attached, label, values, true) ?? k + 1;
    }
    if (spec.optionalValue) return k + 1;
    const value = this.args[k + 1];
    if (value === undefined) return fail('option', `'${label} ${name}' needs a value`);
    return this.value(spec, name, value, label, values, false) ?? k + 2;
  }

  /** Consumes `spec.extraValues` words after position `k`; returns the next index or a failure. */
  private extra(spec: OptionSpec, name: string, k: number, label: string): number | Fail {
    const n = spec.extraValues ?? 0;
    if (k + n >= this.args.length) return fail('option', `'${label} ${name}' needs ${n + 1} values`);
    for (let j = 0; j < n; j++) this.words.push({ kind: 'text', option: name });
    return k + n;
  }

  /**
   * A long option at `args[k]`. Returns the index after it (negative when the option is
   * terminal), or a failure. The option is marked in the word list before its value.
   */
  private long(g: Grammar, k: number, label: string, seen: Set<string>, values: Map<string, string[]>): number | Fail {
    const w = this.args[k] as string;
    const eq = w.indexOf('=');
    const name = eq < 0 ? w : w.slice(0, eq);
    const spec = own(g.options, name);
    if (!spec)
      return fail(
        'option',
        `'${label} ${name}' is not an option Planwise knows to be read-only (unknown options are refused)`,
      );
    const bad = this.refusal(spec, w, label);
    if (bad) return bad;
    seen.add(name);
    this.words.push({ kind: 'option', option: name });
    let next = k + 1;
    if (spec.value !== undefined) {
      const r = this.optionValue(spec, name, eq >= 0 ? w.slice(eq + 1) : null, k, label, values, w);
      if (typeof r !== 'number') return r;
      next = r;
    } else if (eq >= 0) return fail('option', `'${label} ${name}' takes no value`);
    const after = this.extra(spec, name, next - 1, label);
    if (typeof after !== 'number') return after;
    return spec.terminal ? -(after + 1) : after + 1;
  }

  /** A cluster of short options at `args[k]` (`-rn`, `-A3`, `-C dir`). Same return as `long`. */
  private short(g: Grammar, k: number, label: string, seen: Set<string>, values: Map<string, string[]>): number | Fail {
    const w = this.args[k] as string;
    if (g.numericOption && NUMERIC_OPTION.test(w)) {
      seen.add('-NUM');
      this.words.push({ kind: 'option', option: '-NUM' });
      return k + 1;
    }
    this.words.push({ kind: 'option', option: w.slice(0, 2) });
    let next = k + 1;
    let terminal = false;
    for (let j = 1; j < w.length; j++) {
      const name = `-${w[j] as string}`;
      const spec = own(g.options, name);
      if (!spec) {
        const where = w.length > 2 ? ` (in '${w}')` : '';
        return fail(
          'option',
          `'${label} ${name}'${where} is not an option Planwise knows to be read-only (unknown options are refused)`,
        );
      }
      const bad = this.refusal(spec, name, label, w.length > 2 ? ` (in '${w}')` : '');
      if (bad) return bad;
      seen.add(name);
      if (spec.terminal) terminal = true;
      if (spec.value === undefined) continue;
      const rest = w.slice(j + 1);
      const r = this.optionValue(spec, name, rest !== '' ? rest : null, k, label, values, w);
      if (typeof r !== 'number') return r;
      next = r;
      const after = this.extra(spec, name, next - 1, label);
      if (typeof after !== 'number') return after;
      next = after + 1;
      break;
    }
    return terminal ? -next : next;
  }
}

/** Reads `args` (the words after the program word) with `grammar`. */
export function parseArgv(program: string, grammar: Grammar, args: readonly string[]): ArgvResult {
  const reader = new Reader(program, args);
  const bad = reader.read(grammar, 0, program);
  if (bad) {
    return reader.projectCode
      ? {
          ...bad,
          projectCode: true,
          ...(reader.subcommands.length > 0 ? { subcommand: reader.subcommands.join(' ') } : {}),
        }
      : bad;
  }
  return {
    ok: true,
    words: reader.words,
    projectCode: reader.projectCode,
    ...(reader.subcommands.length > 0 ? { subcommand: reader.subcommands.join(' ') } : {}),
    ...(reader.safeMode ? { safeMode: reader.safeMode } : {}),
    ...(reader.inserts.length > 0 ? { inserts: reader.inserts } : {}),
  };
}
