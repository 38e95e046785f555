import type { CliCommand, CliIO } from './io';
import { EXIT_USAGE } from './io';
import { writeOnce } from './directWrite';
import type * as M_checkCommand from './commands/checkCommand';
import type * as M_validatePlan from './commands/validatePlan';
import type * as M_plans from './commands/plans';
import type * as M_review from './commands/review';
import type * as M_plan from './commands/plan';
import type * as M_revert from './commands/revert';
import type * as M_resume from './commands/resume';

/**
 * Loads a command's module by its file name in commands/ (`checkCommand` for checkCommand.ts) when
 * the command runs, so `planwise check-command` never loads the model client: from source
 * (commands/load.ts) or, in the built CLI, from the command's own bundle (bin.ts).
 */
export type CommandLoader = (file: string) => unknown;

const COMMANDS: Record<string, { summary: string; load: (loadCommand: CommandLoader) => CliCommand }> = {
  'check-command': {
    summary: 'check a shell command against the read-only gate',
    load: (loadCommand) => (loadCommand('checkCommand') as typeof M_checkCommand).checkCommand,
  },
  'validate-plan': {
    summary: 'check a plan file against the plan rules (exit 0 valid, 1 invalid)',
    load: (loadCommand) => (loadCommand('validatePlan') as typeof M_validatePlan).validatePlanCommand,
  },
  plans: {
    summary: 'list the plans of a workspace with their tracker progress',
    load: (loadCommand) => (loadCommand('plans') as typeof M_plans).plansCommand,
  },
  review: {
    summary: 'comment on a plan (step N: …), resolve threads, list them',
    load: (loadCommand) => (loadCommand('review') as typeof M_review).reviewCommand,
  },
  plan: {
    summary: 'plan a task read-only, then approve and build it (on a terminal)',
    load: (loadCommand) => (loadCommand('plan') as typeof M_plan).planCommand,
  },
  revert: {
    summary: "undo a build: restore the files it touched (or go back to a step's checkpoint)",
    load: (loadCommand) => (loadCommand('revert') as typeof M_revert).revertCommand,
  },
  resume: {
    summary: 'resume a session: decide a pending plan, or answer the planner',
    load: (loadCommand) => (loadCommand('resume') as typeof M_resume).resumeCommand,
  },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(16)}${c.summary}`);
  return `Usage: planwise <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun 'planwise <command> --help' for a command's options.\n`;
}

/** Runs one `planwise` command line, loading the command's module through `loadCommand`. */
export async function runCli(argv: string[], io: CliIO, loadCommand: CommandLoader): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(usage());
    return name ? 0 : EXIT_USAGE;
  }
  if (name === '--version' || name === '-v') {
    const rest = writeOnce(io, `${PLANWISE_VERSION}\n`);
    if (rest !== '' && rest !== 'closed') io.stdout.write(rest);
    return 0;
  }
  // An own entry only: `planwise constructor` is an unknown command, not Object's constructor.
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    io.stderr.write(`planwise: unknown command '${name}'\n\n${usage()}`);
    return EXIT_USAGE;
  }
  return command.load(loadCommand)(rest, io);
}

declare const PLANWISE_VERSION: string;
