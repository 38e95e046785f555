/**
 * `planwise resume <id> ["message"]`: rebuilds a session from its archive in
 * `<workspace>/.vtcode/sessions/`. A plan that awaits approval is presented at the gate again;
 * a message goes to the session as typed input (an answer to the planner, or an intent at the
 * gate); otherwise the session's state is reported.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { resumeSession } from '../../core/api/sessions';
import { checkSessionId } from '../../node/fileArchiveStore';
import { composeRun, SESSIONS_DIR } from '../compose';
import { EXIT_USAGE, type CliCommand, type CliIO } from '../io';
import { printPlan } from '../render/plan';
import { reportState } from '../render/stop';
import { MODEL_OPTIONS, driveSession, parseRunFlags, stopContext } from './plan';

const USAGE = `Usage: planwise resume <session-id> [options] ["message"]

Resumes a planning session from its archive in .vtcode/sessions/. A plan that awaits approval is
presented again (or decided by --approve); a message is sent as your next input (a reply to the
planner, or a decision such as "implement the plan"); otherwise the session's state is shown.
The session id is printed when 'planwise plan' starts; 'planwise plans' lists the plans.
A revision (--approve revise, or feedback at the gate) carries every unresolved review comment
('planwise review'); with --approve revise the message is the revision's general note.

${MODEL_OPTIONS}

Exit status: as for 'planwise plan'; 2 also for an unknown session id.
`;

/** The archived sessions, newest last, for the "unknown id" message. */
async function knownSessions(list: () => Promise<string[]>, dir: string): Promise<string> {
  const ids = await list();
  if (ids.length === 0) return `No sessions are archived in ${dir}; start one with 'planwise plan "task"'.`;
  const shown = ids.slice(-10);
  const more = ids.length > shown.length ? ` (the last ${shown.length} of ${ids.length})` : '';
  return `Sessions archived in ${dir}${more}: ${shown.join(', ')}. 'planwise plans' lists the plans.`;
}

function usageError(io: CliIO, message: string): number {
  io.stderr.write(`planwise resume: ${message}\n\n${USAGE}`);
  return EXIT_USAGE;
}

export const resumeCommand: CliCommand = async (args, io) => {
  const flags = parseRunFlags(args);
  if ('help' in flags) {
    io.stdout.write(USAGE);
    return 0;
  }
  if ('error' in flags) return usageError(io, flags.error);
  const [id, ...words] = flags.positionals;
  if (id === undefined) return usageError(io, 'give the session id that `planwise plan` printed');
  try {
    checkSessionId(id);
  } catch (err) {
    return usageError(io, (err as Error).message);
  }
  const run = composeRun(flags, io);
  if ('error' in run) {
    io.stderr.write(`planwise resume: ${run.error}\n`);
    return EXIT_USAGE;
  }
  const session = await resumeSession(run.deps, run.config, id);
  if (!session) {
    run.close();
    const dir = path.join(run.root, SESSIONS_DIR);
    io.stderr.write(
      `planwise resume: no resumable session '${id}' in ${dir}. ${await knownSessions(() => run.archive.list(), dir)}\n`,
    );
    return EXIT_USAGE;
  }
  run.attach(session);
  run.ui.line(run.style.dim(`Resumed session ${session.id} · model ${run.settings.model} at ${run.settings.baseURL}`));
  const message = words.join(' ').trim();
  if (message !== '') {
    // `--approve revise "note"` is the one revision it asks for: the message is its general note
    // (with every unresolved review comment), so the revised plan's gate is not revised again.
    const revise = session.state === 'awaiting_approval' && run.reviseOnce?.take() === true;
    return driveSession(run, session, io, () => (revise ? session.decide('revise', message) : session.submit(message)));
  }
  const planFile = session.planFile;
  if (session.state === 'awaiting_approval' && planFile !== undefined) {
    if (!run.json) {
      try {
        const markdown = readFileSync(planFile, 'utf8');
        printPlan(run.ui, run.style, { file: planFile, markdown, revision: 0 }, run.shown(planFile));
      } catch (err) {
        run.ui.line(run.style.yellow(`! The plan file ${planFile} cannot be read (${(err as Error).message}).`));
      }
    }
    return driveSession(run, session, io, () => session.reopen());
  }
  run.close();
  return reportState(stopContext(run, session, io), session.state, planFile);
};
