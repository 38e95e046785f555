import type { CliCommand, CliIO } from './io';
import { EXIT_USAGE } from './io';
import { writeOnce } from './directWrite';

/** Subcommands load lazily so `planwise check-command` does not pay for the model client. */
const COMMANDS: Record<string, { summary: string; load: () => Promise<CliCommand> }> = {
  'check-command': {
    summary: 'check a shell command against the read-only gate',
    load: async () => (await import('./commands/checkCommand')).checkCommand,
  },
  'validate-plan': {
    summary: 'check a plan file against the plan rules (exit 0 valid, 1 invalid)',
    load: async () => (await import('./commands/validatePlan')).validatePlanCommand,
  },
  plans: {
    summary: 'list the plans of a workspace with their tracker progress',
    load: async () => (await import('./commands/plans')).plansCommand,
  },
  review: {
    summary: 'comment on a plan (step N: …), resolve threads, list them',
    load: async () => (await import('./commands/review')).reviewCommand,
  },
  plan: {
    summary: 'plan a task read-only, then approve and build it (on a terminal)',
    load: async () => (await import('./commands/plan')).planCommand,
  },
  revert: {
    summary: "undo a build: restore the files it touched (or go back to a step's checkpoint)",
    load: async () => (await import('./commands/revert')).revertCommand,
  },
  resume: {
    summary: 'resume a session: decide a pending plan, or answer the planner',
    load: async () => (await import('./commands/resume')).resumeCommand,
  },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(16)}${c.summary}`);
  return `Usage: planwise <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun 'planwise <command> --help' for a command's options.\n`;
}

export async function main(argv: string[], io: CliIO): Promise<number> {
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
  const command = COMMANDS[name];
  if (!command) {
    io.stderr.write(`planwise: unknown command '${name}'\n\n${usage()}`);
    return EXIT_USAGE;
  }
  return (await command.load())(rest, io);
}

declare const PLANWISE_VERSION: string;
