/**
 * The panel's view of one engine item: the row it becomes (`rowOf`), what a later event about an
 * item already shown changes on its row (`patchOf`, and `resultOnCallRow` for a tool's result),
 * and the plan view as the protocol carries it.
 */
import type { ItemPayload } from '../../core/api/sessions';
import type { ItemPatch, PlanView, TranscriptItem } from '../../protocol';
import { summariseArgs, toFileChange } from './translateParts';

export type Kind = TranscriptItem['kind'];

/**
 * The row an item the panel does not have yet becomes; `streaming` until the item completes. A
 * report or instructions row comes from its own event, never from here.
 */
export function rowOf(
  id: string,
  kind: Kind,
  item: ItemPayload,
  streaming: boolean,
  relativePath: (path: string) => string,
): TranscriptItem {
  const text = item.text ?? item.delta ?? '';
  switch (kind) {
    case 'user':
      return { id, kind, text };
    case 'assistant':
    case 'thinking':
      return { id, kind, text, streaming };
    case 'tool_call':
      return {
        id,
        kind,
        callId: item.tool?.callId ?? '',
        name: item.tool?.name ?? 'tool',
        title: item.tool?.title ?? item.tool?.name ?? 'tool',
        subject: item.tool?.subject ?? item.tool?.name ?? 'tool',
        argsSummary: summariseArgs(item.tool?.arguments ?? ''),
        ...(item.verdict ? { verdict: { allowed: item.verdict.allowed, reason: item.verdict.reason } } : {}),
      };
    case 'tool_result':
      return {
        id,
        kind,
        callId: item.result?.callId ?? '',
        ok: item.result?.ok ?? false,
        bytes: Math.max(0, Math.round(item.result?.bytes ?? 0)),
        preview: item.result?.preview ?? text,
      };
    case 'plan':
      return {
        id,
        kind,
        markdown: item.plan?.markdown ?? text,
        file: item.plan ? relativePath(item.plan.file) : '',
        revision: item.plan?.revision ?? 0,
        valid: item.plan?.valid ?? false,
        streaming,
        ...(item.plan?.view ? { view: toPlanView(item.plan.view) } : {}),
      };
    case 'notice':
      return { id, kind, level: item.level ?? 'info', text };
    case 'build_report':
    case 'instructions':
      throw new Error(`a ${kind} row comes from its own event, never from an item`);
  }
}

/** A tool result the panel shows on its call's row (one row per call): what it changes there. */
export function resultOnCallRow(r: NonNullable<ItemPayload['result']>): ItemPatch {
  return {
    outcome: r.outcome ?? (r.ok ? 'ok' : 'failed'),
    bytes: Math.max(0, Math.round(r.bytes)),
    preview: r.preview,
    ...(r.title !== undefined ? { title: r.title } : {}),
    ...(r.change ? { change: toFileChange(r.change) } : {}),
  };
}

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
