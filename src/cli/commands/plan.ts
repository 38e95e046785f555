/**
 * `planwise plan "task"`: plans a task against a model, read-only, and stops at the approval gate
 * with the plan persisted. On a terminal it goes on past the gate: the three choices, intent
 * phrases, the build run with its live tracker, and approval prompts for commands.
 *
 * Also home of what `resume` shares: the flag parser and the loop that drives a session until it
 * stops (answering the model's prose replies on a terminal).
 */
import type { ApprovalDecision } from '../../core/api/ports';
import { createSession, type Session, type SessionStop } from '../../core/api/sessions';
import { composeRun, resolveModelSettings, type CliRun, type RunFlags } from '../compose';
import { pickModel } from '../modelPick';
import { EXIT_USAGE, type CliCommand, type CliIO } from '../io';
import {
  EXIT_FAILED,
  EXIT_INTERRUPTED,
  reportPending,
  reportState,
  reportStop,
  resumeCommand,
  type StopContext,
} from '../render/stop';

export const MODEL_OPTIONS = `Workspace and model:
  --workspace DIR        workspace root (default: the current directory)
  --base-url URL         OpenAI-compatible API root (default: $OPENAI_BASE_URL, else http://localhost:11434/v1)
  --model ID             planning model (default: $PLANWISE_MODEL, else one the server lists)
  --build-model ID       model for the build after approval (default: $PLANWISE_BUILD_MODEL, else the planning model)
  --api-key-env NAME     read the API key from $NAME (default: OPENAI_API_KEY; not needed for localhost endpoints)
  --context-window N     the model's context window in tokens, for the context figure and compaction (default 128000)
  --compact-at PERCENT   compact what is sent past this share of the context window (10-100, default 80)
  --first-byte-timeout SECONDS
                         wait this long for the first byte of each answer (default 120; raise it for a
                         local model that takes minutes to load)
  --idle-timeout SECONDS wait this long between two pieces of a streaming answer (default 120)
  --provider NAME        openai-compatible, the only provider the CLI has (vscode-lm is VS Code's own)

Run options:
  --json                 print every event as one JSON line on stdout (messages go to stderr)
  --interactive          ask questions and approvals on stdin even when it is not a terminal
  --non-interactive      never ask: questions are denied and the run stops at the gate
  --approve DECISION     decide the gate without asking: execute, fresh (clear context, then execute)
                         or cancel; revise asks for one revision, then the gate opens as usual
  --allow-command CMD    a build or verify command to run without asking (exact, or a prefix ending in *);
                         repeatable. --approve execute approves the plan, never its commands
  --untrusted            treat the workspace as untrusted (stricter command rules)
  --strict-scope         refuse build writes outside the approved plan's files (default: ask on a
                         terminal; headless runs allow them and list them in the execution report)
  --no-instructions      do not read the repository's AGENTS.md, CLAUDE.md, .github/copilot-instructions.md
                         or .github/instructions/*.instructions.md (read by default, 16 KB at most)
  --mcp-tool SERVER/TOOL an MCP tool to allow, from .vscode/mcp.json or .mcp.json (SERVER/* for all of a
                         server's); repeatable. While planning it is offered only if it also declares
                         itself read-only; while building, one that does not asks before each call
  --mcp-always SERVER/TOOL
                         an allowed MCP tool the build may call without asking; repeatable
  --verbose              log transport and lifecycle details to stderr
  -h, --help             show this help

Environment: PLANWISE_MODEL_RETRIES (0-10, default 3) sets how often a failed model request is retried.
The API key is never printed, logged, archived or passed to commands.`;

const USAGE = `Usage: planwise plan [options] "task"

Plans the task read-only and saves the plan under .vtcode/plans/. On a terminal the plan is then
presented for approval and, once approved, built with a live task tracker. Otherwise the run stops
at the approval gate, prints the plan's path and exits; decide later with 'planwise resume <id>'.

${MODEL_OPTIONS}

Exit status: 0 plan saved (or built with every step completed, or cancelled by you), 1 no valid plan,
the model could not be reached, or the build ended with steps incomplete (the execution report lists
them), 2 usage error.
`;

const APPROVE_VALUES: Readonly<Record<string, ApprovalDecision>> = {
  execute: 'execute',
  fresh: 'fresh_context',
  fresh_context: 'fresh_context',
  revise: 'revise',
  cancel: 'cancel',
};

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

type Parsed = RunFlags | { readonly error: string } | { readonly help: true };

/** A whole number of seconds from 1 to 24 hours, or the problem with it. */
function seconds(flag: string, v: string, set: (n: number) => void): string | undefined {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 86_400)
    return `${flag} needs a whole number of seconds (1 to 86400), not '${v}'`;
  set(n);
  return undefined;
}

/** Parses the flags `plan` and `resume` share; everything else is a positional argument. */
export function parseRunFlags(args: readonly string[]): Parsed {
  const f: Mutable<RunFlags> & {
    allowCommands: string[];
    mcpTools: string[];
    mcpAlways: string[];
    positionals: string[];
  } = {
    json: false,
    untrusted: false,
    verbose: false,
    allowCommands: [],
    mcpTools: [],
    mcpAlways: [],
    positionals: [],
  };
  const valued: Record<string, (v: string) => string | undefined> = {
    '--workspace': (v) => void (f.workspace = v),
    '--base-url': (v) => void (f.baseUrl = v),
    '--model': (v) => void (f.model = v),
    '--build-model': (v) => void (f.buildModel = v),
    '--api-key-env': (v) =>
      /^[A-Za-z_][A-Za-z0-9_]*$/.test(v) ? void (f.apiKeyEnv = v) : `--api-key-env needs a variable name, not '${v}'`,
    '--approve': (v) => {
      const d = APPROVE_VALUES[v];
      if (!d) return `--approve takes execute, fresh, revise or cancel, not '${v}'`;
      f.approve = d;
      return undefined;
    },
    '--allow-command': (v) => void f.allowCommands.push(v),
    '--mcp-tool': (v) =>
      /^[^/\s]+\/[^/\s]+$/.test(v) ? void f.mcpTools.push(v) : `--mcp-tool takes server/tool or server/*, not '${v}'`,
    '--mcp-always': (v) =>
      /^[^/\s*]+\/[^/\s*]+$/.test(v) ? void f.mcpAlways.push(v) : `--mcp-always takes server/tool, not '${v}'`,
    '--first-byte-timeout': (v) => seconds('--first-byte-timeout', v, (n) => (f.firstByteTimeout = n)),
    '--idle-timeout': (v) => seconds('--idle-timeout', v, (n) => (f.idleTimeout = n)),
    '--compact-at': (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 10 || n > 100)
        return `--compact-at needs a percentage from 10 to 100, not '${v}'`;
      f.compactAt = n;
      return undefined;
    },
    '--provider': (v) =>
      v === 'openai-compatible'
        ? undefined
        : v === 'vscode-lm'
          ? "the CLI supports the openai-compatible provider only: vscode-lm (VS Code's Language Model API, e.g. GitHub Copilot) works inside VS Code; here, give --base-url and --model"
          : `--provider takes openai-compatible (the only provider the CLI has), not '${v}'`,
    '--context-window': (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1000) return `--context-window needs a token count of at least 1000, not '${v}'`;
      f.contextWindow = n;
      return undefined;
    },
  };
  let onlyPositionals = false;
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    if (onlyPositionals || !a.startsWith('-') || a === '-') {
      f.positionals.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    const setter = valued[name];
    if (setter) {
      const value = eq > 0 ? a.slice(eq + 1) : args[++k];
      if (value === undefined) return { error: `${name} needs a value` };
      const problem = setter(value);
      if (problem) return { error: problem };
      continue;
    }
    if (eq > 0) return { error: `${name} takes no value` };
    switch (a) {
      case '--':
        onlyPositionals = true;
        break;
      case '--json':
        f.json = true;
        break;
      case '--interactive':
      case '--non-interactive':
        if (f.interactive !== undefined && f.interactive !== (a === '--interactive')) {
          return { error: '--interactive and --non-interactive exclude each other' };
        }
        f.interactive = a === '--interactive';
        break;
      case '--untrusted':
        f.untrusted = true;
        break;
      case '--strict-scope':
        f.strictScope = true;
        break;
      case '--no-instructions':
        f.noInstructions = true;
        break;
      case '--verbose':
        f.verbose = true;
        break;
      case '-h':
      case '--help':
        return { help: true };
      default:
        return { error: `unknown option '${a}'` };
    }
  }
  return f;
}

export function stopContext(run: CliRun, session: Session, io: CliIO): StopContext {
  return { id: session.id, ui: run.ui, stderr: io.stderr, style: run.style, redact: run.redact, shown: run.shown };
}

/**
 * Runs `first` and whatever follows until the session stops, then reports it. On a terminal a
 * prose reply from the planner (a question, a clarification) is answered and planning goes on;
 * leaving the gate without a decision keeps the plan pending for `planwise resume`.
 */
export async function driveSession(
  run: CliRun,
  session: Session,
  io: CliIO,
  first: () => Promise<SessionStop | undefined>,
): Promise<number> {
  const ctx = stopContext(run, session, io);
  let interrupted = false;
  if (run.input) {
    run.input.onInterrupt = () => {
      interrupted = true;
      run.ui.line(run.style.yellow('Interrupted: stopping the current turn…'));
      session.cancel();
    };
    run.input.listen();
  }
  try {
    let next = first;
    for (;;) {
      const outcome = await Promise.race([
        next().then((stop) => ({ stop })),
        run.detached.then((planFile) => ({ planFile })),
      ]);
      if ('planFile' in outcome) return reportPending(ctx, outcome.planFile);
      const stop = outcome.stop;
      run.ui.breakLine(); // streamed text may have stopped mid-line
      if (interrupted) {
        io.stderr.write(`planwise: interrupted. Resume with: ${resumeCommand(session.id)}\n`);
        return EXIT_INTERRUPTED;
      }
      if (stop === undefined) return reportState(ctx, session.state, session.planFile);
      const planning = session.state === 'planning' || session.state === 'revising';
      if (stop.kind === 'completed' && planning) {
        if (!run.input) {
          io.stderr.write(
            `planwise: the planner replied without a plan, so planning is still active. ` +
              `Answer it with: ${resumeCommand(session.id)} "your reply"\n`,
          );
          return EXIT_FAILED;
        }
        const reply = await run.input.ask('Your reply to the planner (Enter to stop here): ');
        if (reply === null || reply.trim() === '') return reportState(ctx, session.state, session.planFile);
        next = () => session.submit(reply);
        continue;
      }
      if (stop.kind === 'awaiting_approval' && run.reviseOnce?.take()) {
        next = () => session.decide('revise');
        continue;
      }
      return reportStop(ctx, stop, session.state, session.planFile);
    }
  } finally {
    run.close();
  }
}

function usageError(io: CliIO, message: string): number {
  io.stderr.write(`planwise plan: ${message}\n\n${USAGE}`);
  return EXIT_USAGE;
}

export const planCommand: CliCommand = async (args, io) => {
  const flags = parseRunFlags(args);
  if ('help' in flags) {
    io.stdout.write(USAGE);
    return 0;
  }
  if ('error' in flags) return usageError(io, flags.error);
  const task = flags.positionals.join(' ').trim();
  if (task === '') return usageError(io, 'give the task to plan, e.g. planwise plan "add a --dry-run flag"');
  // No model named: plan with one the endpoint serves, or say in two lines how to reach one.
  let chosen = flags;
  let pickedNote: string | undefined;
  if (!flags.model?.trim() && !io.env['PLANWISE_MODEL']?.trim()) {
    const endpoint = resolveModelSettings({ ...flags, model: 'any' }, io.env);
    if ('error' in endpoint) return usageError(io, endpoint.error);
    const picked = await pickModel(endpoint.baseURL, endpoint.apiKey);
    if ('error' in picked) {
      io.stderr.write(`planwise: ${picked.error}\n`);
      return EXIT_FAILED;
    }
    chosen = { ...flags, model: picked.model };
    pickedNote = `Model ${picked.model}, one of the ${picked.offered} the server lists (--model or PLANWISE_MODEL picks another).`;
  }
  const run = composeRun(chosen, io);
  if ('error' in run) {
    io.stderr.write(`planwise plan: ${run.error}\n`);
    return EXIT_USAGE;
  }
  if (pickedNote) run.ui.line(run.style.dim(pickedNote));
  const session = createSession(run.deps, run.config);
  run.attach(session);
  run.ui.line(
    run.style.dim(`Session ${session.id} · model ${run.settings.model} at ${run.settings.baseURL} · ${run.root}`),
  );
  return driveSession(run, session, io, () => session.start(task));
};
