/**
 * The panel's view of one engine item: what a later event about an item already shown changes on
 * its row (`patchOf`), and the plan view as the protocol carries it.
 */
import type { ItemPayload } from '../../core/api/sessions';
import type { PlanView, TranscriptItem } from '../../protocol';
import { summariseArgs } from './translateParts';

export type Kind = TranscriptItem['kind'];

/** What an update of an item the panel already shows changes on its row. */
export function patchOf(
  kind: Kind,
  item: ItemPayload,
  completed: boolean,
  relativePath: (path: string) => string,
): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  if (kind === 'plan') {
    if (item.plan) {
      patch.markdown = item.plan.markdown;
      patch.file = relativePath(item.plan.file);
      patch.revision = item.plan.revision;
      patch.valid = item.plan.valid;
      if (item.plan.view) patch.view = toPlanView(item.plan.view);
    } else if (item.text !== undefined && item.delta === undefined) {
      patch.markdown = item.text;
    }
  } else if (item.text !== undefined && item.delta === undefined && kind !== 'tool_call' && kind !== 'tool_result') {
    patch.text = item.text;
  }
  if (kind === 'tool_call') {
    if (item.verdict) patch.verdict = { allowed: item.verdict.allowed, reason: item.verdict.reason };
    if (item.tool) {
      patch.argsSummary = summariseArgs(item.tool.arguments);
      if (item.tool.title !== undefined) patch.title = item.tool.title;
      if (item.tool.subject !== undefined) patch.subject = item.tool.subject;
    }
  }
  if (kind === 'tool_result' && item.result) {
    patch.ok = item.result.ok;
    patch.bytes = Math.max(0, Math.round(item.result.bytes));
    patch.preview = item.result.preview;
  }
  if (kind === 'notice' && item.level) patch.level = item.level;
  if (completed && (kind === 'assistant' || kind === 'thinking' || kind === 'plan')) patch.streaming = false;
  return patch;
}

/** The engine's plan view as the protocol carries it (plain arrays, a command only where there is one). */
export function toPlanView(v: NonNullable<NonNullable<ItemPayload['plan']>['view']>): PlanView {
  return {
    title: v.title,
    summary: v.summary,
    steps: v.steps.map((s) => ({
      index: s.index,
      title: s.title,
      files: [...s.files],
      verify: s.verify.map((e) =>
        e.kind === 'command' ? { kind: e.kind, text: e.text, command: e.command } : { kind: e.kind, text: e.text },
      ),
    })),
  };
}
