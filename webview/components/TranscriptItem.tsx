/** One transcript entry, by kind. */
import type { ToolOutcome, TranscriptItem } from '../../src/protocol';
import { Icon } from '../ui/Icon';
import { BuildReportCard } from './BuildReport';
import { Collapsible } from './Collapsible';
import { FileLink } from './FileLink';
import { ChangeCounts, FileDiff } from './FileDiff';
import { formatBytes } from './format';
import { InstructionsRow } from './InstructionsRow';
import { NoticeActions } from './NoticeActions';
import { PlanSteps } from './PlanSteps';
import { RichText } from './RichText';
import { pure } from '../pure';

export { formatBytes };

const NOTICE_ICON = { info: 'info', warning: 'warning', error: 'error' } as const;

/** A call's icon, its label (what a screen reader says) and its result's summary, by the engine's outcome. */
const OUTCOME: Record<ToolOutcome, { icon: string; class: string; label: string; summary: string }> = {
  ok: { icon: 'check', class: 'pw-ok', label: 'allowed and ran', summary: 'Result' },
  failed: { icon: 'error', class: 'pw-bad', label: 'ran and failed', summary: 'Failed' },
  blocked: { icon: 'circle-slash', class: 'pw-bad', label: 'blocked before it ran', summary: 'Blocked' },
  refused: {
    icon: 'circle-slash',
    class: 'pw-bad',
    label: 'refused (the reason is in its result)',
    summary: 'Refused',
  },
  skipped: { icon: 'debug-step-over', class: 'pw-muted', label: 'not run: held back by a guard', summary: 'Not run' },
};

/** A rough height before the item is measured, so the scrollbar is close from the start. */
export function estimateItemHeight(item: TranscriptItem): number {
  switch (item.kind) {
    case 'assistant':
    case 'user':
      return 36 + Math.min(2000, Math.ceil(item.text.length / 60) * 20);
    case 'plan':
      return 80 + Math.min(3000, Math.ceil(item.markdown.length / 60) * 20);
    case 'notice':
      return 36;
    case 'build_report':
      return 160;
    default:
      return 30;
  }
}

function ItemView({ item }: { item: TranscriptItem }) {
  switch (item.kind) {
    case 'user':
      return (
        <div class="pw-item pw-user" aria-label="You">
          <RichText text={item.text} format="plain" />
        </div>
      );
    case 'assistant':
      return (
        <div class={`pw-item pw-assistant${item.streaming ? ' pw-streaming' : ''}`} aria-busy={item.streaming}>
          <RichText text={item.text} format="markdown" streaming={item.streaming} />
        </div>
      );
    case 'thinking':
      return (
        <Collapsible
          class="pw-item pw-thinking"
          stateKey={`item:${item.id}`}
          summary={
            <span class="pw-summary">
              <Icon name="lightbulb" /> {item.streaming ? 'Thinking…' : 'Thought'}
            </span>
          }
        >
          {() => <RichText text={item.text} format="plain" streaming={item.streaming} class="pw-muted" />}
        </Collapsible>
      );
    case 'tool_call': {
      const outcome = item.outcome ? OUTCOME[item.outcome] : undefined;
      const change = item.outcome === 'ok' ? item.change : undefined;
      if (change) {
        // A file tool that changed a file: the row itself opens to the diff.
        return (
          <div class="pw-item pw-tool-call" data-outcome={item.outcome}>
            <Collapsible
              class="pw-tool-change"
              stateKey={`item:${item.id}:diff`}
              summary={
                <span class="pw-tool-line">
                  <Icon name="tools" />
                  <span class="pw-tool-title">
                    {item.title} <ChangeCounts change={change} />
                  </span>
                  {outcome ? <Icon name={outcome.icon} class={outcome.class} label={outcome.label} /> : null}
                </span>
              }
            >
              {() => <FileDiff change={change} />}
            </Collapsible>
            {change.note !== undefined ? (
              <p class="pw-change-note" role="note">
                <Icon name="info" /> {change.note}
              </p>
            ) : null}
          </div>
        );
      }
      return (
        <div
          class={`pw-item pw-tool-call${item.verdict && !item.verdict.allowed ? ' pw-tool-blocked' : ''}`}
          data-outcome={item.outcome ?? 'running'}
        >
          <div class="pw-tool-line">
            <Icon name="tools" />
            <RichText
              class="pw-tool-title"
              format="inline"
              text={item.verdict && !item.verdict.allowed ? `Not run: ${item.subject}` : item.title}
            />
            {outcome ? (
              <Icon name={outcome.icon} class={outcome.class} label={outcome.label} />
            ) : item.verdict?.allowed ? (
              <Icon name="loading" class="codicon-modifier-spin" label="running" />
            ) : null}
          </div>
          {item.verdict && !item.verdict.allowed ? (
            <div class="pw-verdict" role="note">
              <Icon name="circle-slash" />
              <span>
                Blocked: <RichText text={item.verdict.reason.replace(/^blocked:\s*/i, '')} format="inline" />
              </span>
            </div>
          ) : null}
          {item.preview !== undefined && item.outcome !== 'blocked' ? (
            <Collapsible
              class={`pw-tool-result${item.outcome === 'ok' ? '' : ' pw-failed'}`}
              stateKey={`item:${item.id}:result`}
              summary={
                <span class="pw-summary">
                  {outcome?.summary ?? 'Result'} · {formatBytes(item.bytes ?? 0)}
                </span>
              }
            >
              {() => <RichText text={item.preview ?? ''} format="plain" class="pw-preview" />}
            </Collapsible>
          ) : null}
        </div>
      );
    }
    case 'tool_result':
      return (
        <Collapsible
          class={`pw-item pw-tool-result${item.ok ? '' : ' pw-failed'}`}
          stateKey={`item:${item.id}`}
          summary={
            <span class="pw-summary">
              <Icon name={item.ok ? 'output' : 'error'} /> {item.ok ? 'Result' : 'Failed'} · {formatBytes(item.bytes)}
            </span>
          }
        >
          {() => <RichText text={item.preview} format="plain" class="pw-preview" />}
        </Collapsible>
      );
    case 'plan':
      return (
        <article class="pw-item pw-plan-card" aria-label="Plan">
          <header class="pw-plan-head">
            <Icon name="checklist" />
            <span class="pw-plan-title">Plan{item.revision > 0 ? ` · revision ${item.revision}` : ''}</span>
            {item.streaming ? (
              <span class="pw-tag">writing…</span>
            ) : (
              <span class={`pw-tag ${item.valid ? 'pw-tag-ok' : 'pw-tag-warn'}`}>
                {item.valid ? 'validated' : 'needs work'}
              </span>
            )}
            {item.file ? <FileLink path={item.file} /> : null}
          </header>
          {item.view && !item.streaming ? (
            <>
              <PlanSteps view={item.view} runnable={item.file !== ''} planFile={item.file} />
              <Collapsible
                class="pw-plan-raw"
                stateKey={`item:${item.id}:raw`}
                summary={<span class="pw-summary">The plan as written</span>}
              >
                {() => <RichText text={item.markdown} format="markdown" />}
              </Collapsible>
            </>
          ) : (
            <RichText text={item.markdown} format="markdown" streaming={item.streaming} />
          )}
        </article>
      );
    case 'notice':
      return (
        // An error is said by the panel's polite live region (announce.ts); a live role here too
        // would have a screen reader read it twice. Warnings, which it does not say, are alerts.
        // A notice is said when it appears; its text patched in place (a retry's countdown, once a
        // second) is not said again.
        <div
          class={`pw-item pw-notice pw-level-${item.level}`}
          {...(item.level === 'error' ? {} : { role: item.level === 'info' ? 'status' : 'alert' })}
        >
          <Icon name={NOTICE_ICON[item.level]} /> <span aria-live="off">{item.text}</span>
          <NoticeActions item={item} />
        </div>
      );
    case 'build_report':
      return <BuildReportCard item={item} />;
    case 'instructions':
      return <InstructionsRow item={item} />;
  }
}

/** One transcript entry; re-renders only when the item itself changed. */
export const TranscriptItemView = pure(ItemView);
