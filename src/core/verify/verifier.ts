/**
 * The engine's one verify runner and its one result store. Every runner of a `verify:` entry (the
 * build's verify gate, the CodeLens, the panel's Run button, Run All Verify) calls `run` with the
 * entry the validator parsed; nobody re-parses or rewrites the command. Before anything runs, the
 * entry's command is put to the build side's one command policy (`permitCommand`, rules §9) with
 * the caller's way of asking: the gate's runnable form runs for a read-only command, an
 * allow-listed or approved one runs as written, and anything else only with the person's yes; a
 * refusal is recorded as "did not run", with why and how to allow it. Each run is its own
 * process, so a hung run never blocks the next one, and each can be cancelled by its key. A check
 * (no command proves it) is signed off by a person with `signOff`. Results are keyed by plan file,
 * step path and the entry as written, and every change goes out to the listeners as the body of a
 * `verify.recorded` event; hosts and the session are views of that.
 */
import { Emitter } from '../emitter';
import type { CommandRunner } from '../ports';
import type { VerifyEntry } from '../plan/types';
import { EXEC_ENV, GATED_ENV } from '../tools/shellRun';
import type { BuildPolicyContext } from '../tools/build/buildPolicy';
import { permitCommand, type CommandAsk } from '../tools/build/commandPermit';
import type { VerifyJournalPort } from './journal';

/** The one verify timeout of every runner (the build gate, lenses, the panel, the CLI). */
export const DEFAULT_VERIFY_TIMEOUT_MS = 5 * 60_000;
export const VERIFY_OUTPUT_BYTES = 256 * 1024;
/** The tail of the output kept with a result (what the tracker and the lens tooltip show). */
export const VERIFY_OUTPUT_TAIL = 4000;

/**
 * `awaiting`: a check the build asked the person to sign off (the step was reported done); only a
 * person's `checked` follows it.
 */
export type VerifyStatus = 'running' | 'passed' | 'failed' | 'timed_out' | 'cancelled' | 'checked' | 'awaiting';

/** Who asked: the build agent's verify gate, or a person (lens, panel, CLI prompt). */
export type VerifyOrigin = 'build' | 'person';

/** One verify result, as it travels in `verify.recorded`. */
export interface VerifyRecord {
  readonly planFile: string;
  /** The tracker item path ("2", "2.1"); a plan step's path is its 1-based index. */
  readonly step: string;
  /** The entry as written in the plan: the key. */
  readonly entry: string;
  readonly kind: VerifyEntry['kind'];
  /** The command that ran (commands only), exactly as the validator parsed it. */
  readonly command?: string;
  readonly status: VerifyStatus;
  /** Null while running, for checks, and when the run was stopped before it exited. */
  readonly exitCode: number | null;
  readonly durationMs: number;
  /** The tail of the output, or why the run could not happen. */
  readonly output: string;
  readonly at: number;
  readonly origin: VerifyOrigin;
  /** The command policy refused it: it did not run, and `output` says why and how to allow it. */
  readonly refused?: true;
}

/** Who asks for a run, and how a command that needs a yes gets one (rules §9). */
export interface VerifyAsk extends CommandAsk {
  readonly origin: VerifyOrigin;
  /** Commands the person approved with the plan, by their text, for this build. */
  readonly approved?: ReadonlySet<string>;
  /** Allow-list entries besides the verifier's own (the session's: `--allow-command`, "Always allow"). */
  readonly allowList?: readonly string[];
}

export interface VerifierOptions {
  /** Absent: this host cannot run processes; every command run is recorded as failed, saying so. */
  readonly runner?: CommandRunner;
  /** Where verify commands run: the workspace root. */
  readonly cwd: () => string;
  readonly now: () => number;
  /** Per run; a function is read at each run, so a changed setting applies to the next one. */
  readonly timeoutMs?: number | (() => number);
  /** Where finished results are kept across reloads (`<stem>.verify.json`); absent: memory only. */
  readonly journal?: VerifyJournalPort;
  /**
   * The command policy's context, read at each run: the gate's (roots, trust, file system) and the
   * person's allow-list. Every command entry is decided against it before it runs.
   */
  readonly policy: () => BuildPolicyContext;
}

type Listener = (record: VerifyRecord) => void;

const keyOf = (planFile: string, step: string, entry: string) => `${planFile}\u0000${step}\u0000${entry}`;

export class Verifier {
  private readonly records = new Map<string, VerifyRecord>();
  private readonly running = new Map<string, { abort: AbortController; done: Promise<VerifyRecord> }>();
  private readonly listeners = new Emitter<VerifyRecord>();
  private readonly restored = new Map<string, Promise<number>>();

  constructor(private readonly options: VerifierOptions) {}

  get timeoutMs(): number {
    const t = this.options.timeoutMs;
    return (typeof t === 'function' ? t() : t) ?? DEFAULT_VERIFY_TIMEOUT_MS;
  }

  /** The latest result of one entry of one step, if it ever ran or was signed off. */
  latest(planFile: string, step: string, entry: string): VerifyRecord | undefined {
    return this.records.get(keyOf(planFile, step, entry));
  }

  /** The latest result of every entry of one plan that ran or was signed off (running ones too). */
  resultsOf(planFile: string): VerifyRecord[] {
    return [...this.records.values()].filter((r) => r.planFile === planFile);
  }

  /**
   * Brings back a plan's results from its journal, once per plan file (later calls share the
   * first load). A result recorded since is newer and is kept. Listeners are not told: restored
   * results settle nothing; the caller refreshes its views. Resolves to the number restored.
   */
  restore(planFile: string): Promise<number> {
    const journal = this.options.journal;
    if (!journal || planFile === '') return Promise.resolve(0);
    let loading = this.restored.get(planFile);
    if (!loading) {
      loading = journal.load(planFile).then(
        (records) => {
          let n = 0;
          for (const r of records) {
            const key = keyOf(planFile, r.step, r.entry);
            if (this.records.has(key)) continue;
            this.records.set(key, r);
            n++;
          }
          return n;
        },
        () => 0,
      );
      this.restored.set(planFile, loading);
    }
    return loading;
  }

  /** True while any result is kept (relative times need refreshing). */
  get hasResults(): boolean {
    return this.records.size > 0;
  }

  isRunning(planFile: string, step: string, entry: string): boolean {
    return this.running.has(keyOf(planFile, step, entry));
  }

  onRecorded(listener: Listener): () => void {
    const subscription = this.listeners.on(listener);
    return () => subscription.dispose();
  }

  /**
   * Runs a command entry in its own process, once the command policy allows it (`who` says who
   * asks and how a yes is given). A second run of an entry that is still running joins the first.
   * `who.signal` (the build turn's) cancels it like `cancel` does.
   */
  async run(planFile: string, step: string, entry: VerifyEntry, who: VerifyAsk): Promise<VerifyRecord> {
    if (entry.kind !== 'command') {
      throw new Error(`"${entry.text}" is a check a person signs off; it has no command to run`);
    }
    const key = keyOf(planFile, step, entry.text);
    const already = this.running.get(key);
    if (already) return already.done;
    const { origin, signal } = who;
    const base = { planFile, step, entry: entry.text, kind: entry.kind, command: entry.command, origin } as const;
    const ctx = this.options.policy();
    const permit = await permitCommand(
      entry.command,
      {
        ...ctx,
        allowList: [...(ctx.allowList ?? []), ...(who.allowList ?? [])],
        ...(who.approved ? { approved: who.approved } : {}),
      },
      who,
    );
    if (!permit.ok) {
      const at = this.options.now();
      return this.record({
        ...base,
        status: 'failed',
        exitCode: null,
        durationMs: 0,
        output: permit.reason,
        at,
        refused: true,
      });
    }
    const again = this.running.get(key);
    if (again) return again.done;
    const abort = new AbortController();
    const onOuterAbort = () => abort.abort(signal?.reason);
    signal?.addEventListener('abort', onOuterAbort, { once: true });
    if (signal?.aborted) abort.abort(signal.reason);
    const started = this.options.now();
    this.record({ ...base, status: 'running', exitCode: null, durationMs: 0, output: '', at: started });
    // A command the read-only gate admitted runs as the gate runs it: its runnable form, its environment.
    const done = this.execute(permit.runs, permit.gated, abort.signal).then((r) => {
      signal?.removeEventListener('abort', onOuterAbort);
      this.running.delete(key);
      const now = this.options.now();
      return this.record({ ...base, ...r, durationMs: r.durationMs ?? now - started, at: now });
    });
    this.running.set(key, { abort, done });
    return done;
  }

  /** Stops a running entry; its result is recorded as cancelled. False when it was not running. */
  cancel(planFile: string, step: string, entry: string): boolean {
    const run = this.running.get(keyOf(planFile, step, entry));
    if (!run) return false;
    run.abort.abort(new Error('verify cancelled by the person'));
    return true;
  }

  /** Stops every running entry (the host is shutting down). */
  cancelAll(): void {
    for (const run of this.running.values()) run.abort.abort(new Error('verify cancelled'));
  }

  /**
   * The build reported a step done whose check no person signed off: the check now waits for the
   * person ("Awaiting your check"). A check already signed off stays signed.
   */
  requestCheck(planFile: string, step: string, entry: string): VerifyRecord | undefined {
    if (this.latest(planFile, step, entry)?.status === 'checked') return undefined;
    return this.record({
      planFile,
      step,
      entry,
      kind: 'check',
      status: 'awaiting',
      exitCode: null,
      durationMs: 0,
      output: '',
      at: this.options.now(),
      origin: 'build',
    });
  }

  /** A person signed a check off. Only a person: the build agent has no path here. */
  signOff(planFile: string, step: string, entry: string): VerifyRecord {
    return this.record({
      planFile,
      step,
      entry,
      kind: 'check',
      status: 'checked',
      exitCode: null,
      durationMs: 0,
      output: '',
      at: this.options.now(),
      origin: 'person',
    });
  }

  /**
   * Forgets a plan's results (its file now holds another plan), or only those of the steps `of`
   * picks (a revert undid them). The journal keeps what is left.
   */
  async forget(planFile: string, of?: (step: string) => boolean): Promise<void> {
    if (of) await this.restore(planFile);
    for (const [k, r] of [...this.records]) if (r.planFile === planFile && (!of || of(r.step))) this.records.delete(k);
    // Its journal follows: emptied, or written with the results kept, and never loaded again.
    this.restored.set(planFile, Promise.resolve(0));
    await this.options.journal?.save(planFile, of ? this.finishedOf(planFile) : []);
  }

  /** Writes the plan's journal; its earlier results are loaded first, so none is written over. */
  private keep(planFile: string): void {
    const journal = this.options.journal;
    if (!journal || planFile === '') return;
    void this.restore(planFile).then(() => journal.save(planFile, this.finishedOf(planFile)));
  }

  /** The finished results of one plan, for its journal. */
  private finishedOf(planFile: string): VerifyRecord[] {
    return [...this.records.values()].filter((r) => r.planFile === planFile && r.status !== 'running');
  }

  private async execute(
    command: string,
    gated: boolean,
    signal: AbortSignal,
  ): Promise<Pick<VerifyRecord, 'status' | 'exitCode' | 'output'> & { durationMs?: number }> {
    const runner = this.options.runner;
    if (!runner) {
      return { status: 'failed', exitCode: null, output: 'verify commands cannot run here: this host has no shell' };
    }
    try {
      const run = await runner.run(command, {
        cwd: this.options.cwd(),
        env: gated ? GATED_ENV : EXEC_ENV,
        timeoutMs: this.timeoutMs,
        maxOutputBytes: VERIFY_OUTPUT_BYTES,
        signal,
      });
      const output = `${run.stdout}${run.stderr ? `\n${run.stderr}` : ''}`.slice(-VERIFY_OUTPUT_TAIL);
      if (signal.aborted) return { status: 'cancelled', exitCode: null, output, durationMs: run.durationMs };
      if (run.timedOut) {
        const note = `\n(timed out after ${Math.round(this.timeoutMs / 1000)} s)`;
        return { status: 'timed_out', exitCode: null, output: `${output}${note}`, durationMs: run.durationMs };
      }
      return {
        status: run.exitCode === 0 ? 'passed' : 'failed',
        exitCode: run.exitCode,
        output,
        durationMs: run.durationMs,
      };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      return { status: signal.aborted ? 'cancelled' : 'failed', exitCode: null, output: message };
    }
  }

  private record(r: VerifyRecord): VerifyRecord {
    this.records.set(keyOf(r.planFile, r.step, r.entry), r);
    if (r.status !== 'running') this.keep(r.planFile);
    this.listeners.fire(r);
    return r;
  }
}
