/**
 * What every tool of one turn in `mode` reads: the ports, the session's trust and budgets, the
 * build's guard and allow-list, the person's prompts, and the callbacks that put an interview on
 * the bus or ask the person to enter planning.
 */
import { plannerReplies } from '../plan/reviewBook';
import type { ToolContext } from '../tools';
import type { AgentToolContext, TrackerHandle } from '../tools/session/context';
import type { SessionCore } from './core';

export function toolContextOf(core: SessionCore, mode: 'plan' | 'build', tracker: TrackerHandle): AgentToolContext {
  const d = core.deps;
  const base: ToolContext = {
    reader: d.reader,
    ...(d.gateFs ? { gateFs: d.gateFs } : {}),
    searcher: d.searcher,
    ...(d.runner ? { runner: d.runner } : {}),
    trusted: core.config.trusted,
    ...(core.config.home !== undefined ? { home: core.config.home } : {}),
    signal: core.abort.signal,
    previewLimitBytes: core.guards.config.previewResultBytes,
    spool: core.spool,
  };
  return {
    ...base,
    ...(mode === 'build' ? { writer: d.editWriter ?? d.writer } : {}),
    ...(mode === 'build' && core.build ? { build: core.build } : {}),
    interviewer: d.interviewer,
    approver: d.approver,
    interactive: core.config.interactive !== false,
    tracker,
    buildAllowList: [...(core.config.buildAllowList ?? []), ...core.commands.remembered],
    ...(mode === 'build' ? { approvedCommands: core.commands.approved } : {}),
    rememberCommand: core.rememberCommand,
    interviewState: core.interviewState,
    review: plannerReplies(core.review, () => core.planFile),
    onInterview: (record) => {
      core.bus.emit({
        type: 'item.completed',
        turn_id: '',
        item: {
          id: core.newId('interview'),
          kind: 'interview',
          interview: {
            questions: record.questions,
            outcome: record.outcome.kind,
            ...(record.outcome.kind === 'answered' ? { answers: record.outcome.answers } : {}),
          },
        },
      });
    },
    onStartPlanning: async (reason) => {
      const ask = core.deps.approver.enterPlanning;
      if (core.config.interactive === false || !ask) return 'pending';
      const accepted = await ask.call(core.deps.approver, reason, core.abort.signal);
      if (accepted) core.apply({ type: 'planning_requested', reason });
      return accepted ? 'accepted' : 'declined';
    },
  };
}
