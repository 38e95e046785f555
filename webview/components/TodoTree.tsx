/**
 * The task tracker, collapsed to one line ("2/5 · step 3: Wire the limiter…") that opens on demand
 * into a tree of any depth: status icons, a header with the engine's counts and
 * percent (nothing is counted here), expand/collapse, files as links, verify entries as the engine
 * parsed them: commands with Run/Cancel and their last result, checks with "Mark checked", and
 * "Awaiting your check" on a step that waits for the person. Relative times refresh every minute.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { activePath, revealRow } from '../trackerScroll';
import { installRoving } from '../roving';
import { formatAgo } from '../../src/protocol/ago';
import type { Tracker, TrackerNode, TrackerStatus, VerifyEntryView, VerifyResult } from '../../src/protocol';
import { usePanel, useUiState } from '../context';
import { Button } from '../ui/Button';
import { Icon } from '../ui/Icon';
import { FileLink } from './FileLink';
import { RichText } from './RichText';
import { pure } from '../pure';

const STATUS: Record<TrackerStatus, { icon: string; label: string }> = {
  pending: { icon: 'circle-large-outline', label: 'Pending' },
  in_progress: { icon: 'sync', label: 'In progress' },
  completed: { icon: 'pass-filled', label: 'Completed' },
  blocked: { icon: 'error', label: 'Blocked' },
};

/** How often "2 min ago" is recomputed. */
export const AGE_REFRESH_MS = 30_000;

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(t);
  }, [intervalMs]);
  return now;
}

export function describeAge(at: number, now: number): string {
  return formatAgo(now - at);
}

export function describeVerify(v: VerifyResult, now: number): { text: string; ok: boolean } {
  const age = describeAge(v.at, now);
  switch (v.status) {
    case 'running':
      return { text: 'running…', ok: true };
    case 'passed':
      return { text: `passed ${age}`, ok: true };
    case 'checked':
      return { text: `checked ${age}`, ok: true };
    case 'timed_out':
      return { text: `timed out, ${age}`, ok: false };
    case 'cancelled':
      return { text: `cancelled, ${age}`, ok: false };
    case 'failed':
      return { text: v.exitCode === null ? `did not run, ${age}` : `exit ${v.exitCode}, ${age}`, ok: false };
  }
}

function VerifyRow({
  node,
  entry,
  trusted,
  now,
  planFile,
}: {
  node: TrackerNode;
  entry: VerifyEntryView;
  trusted: boolean;
  now: number;
  planFile: string | undefined;
}) {
  const { post } = usePanel();
  const r = entry.result;
  const last = r ? describeVerify(r, now) : undefined;
  const ref = { ...(planFile ? { planFile } : {}), itemPath: node.path, entry: entry.text };
  const outcome = last ? (
    <span class={`pw-verify-result ${last.ok ? 'pw-ok' : 'pw-bad'}`}>
      <Icon name={r?.status === 'running' ? 'sync' : last.ok ? 'check' : 'close'} /> {last.text}
    </span>
  ) : null;
  if (entry.kind === 'check') {
    return (
      <div class="pw-verify pw-verify-check">
        <span class="pw-verify-text">{entry.text}</span>
        {r?.status === 'checked' ? (
          outcome
        ) : (
          <Button
            appearance="secondary"
            label={`Mark checked: ${entry.text}`}
            title="No command proves this: check it yourself, then mark it checked"
            onClick={() => post({ type: 'markChecked', ...ref })}
          >
            <Icon name="check" /> Mark checked
          </Button>
        )}
      </div>
    );
  }
  const command = entry.command ?? entry.text;
  return (
    <div class="pw-verify">
      <code class="pw-verify-cmd">{command}</code>
      {r?.status === 'running' ? (
        <Button
          appearance="secondary"
          label={`Cancel ${command}`}
          onClick={() => post({ type: 'cancelVerify', ...ref })}
        >
          <Icon name="debug-stop" /> Cancel
        </Button>
      ) : (
        <Button
          appearance="secondary"
          disabled={!trusted}
          label={`Run ${command}`}
          title={trusted ? `Run ${command}` : 'Verify runs are off in an untrusted workspace.'}
          onClick={() => post({ type: 'runVerify', ...ref })}
        >
          <Icon name="play" /> Run
        </Button>
      )}
      {outcome}
    </div>
  );
}

function TodoNode({
  node,
  depth,
  trusted,
  now,
  planFile,
}: {
  node: TrackerNode;
  depth: number;
  trusted: boolean;
  now: number;
  planFile: string | undefined;
}) {
  const { ui } = usePanel();
  const uiState = useUiState();
  const hasDetails = node.files.length > 0 || node.entries.length > 0 || node.children.length > 0;
  const key = `tracker:${node.path}`;
  const open = uiState.expanded[key] ?? (node.children.length > 0 || node.status === 'in_progress');
  const status = STATUS[node.status];
  return (
    <li class={`pw-todo pw-status-${node.status}`} data-path={node.path} role="none">
      <div class="pw-todo-row">
        {hasDetails ? (
          <button
            type="button"
            class="pw-twisty"
            aria-expanded={open}
            aria-label={`${open ? 'Collapse' : 'Expand'} step ${node.path}`}
            onClick={() => ui.setExpanded(key, !open)}
          >
            <Icon name={open ? 'chevron-down' : 'chevron-right'} />
          </button>
        ) : (
          <span class="pw-twisty-space" />
        )}
        <Icon name={status.icon} label={status.label} class="pw-status-icon" />
        <span class="pw-todo-path">{node.path}</span>
        <RichText text={node.description} format="inline" class="pw-todo-desc" />
        {node.awaitingCheck ? (
          <span class="pw-awaiting-check" role="status">
            <Icon name="eye" /> Awaiting your check
          </span>
        ) : null}
      </div>
      {open && (node.files.length > 0 || node.entries.length > 0) ? (
        <div class="pw-todo-details">
          {node.files.length > 0 ? (
            <div class="pw-todo-files">
              <Icon name="files" label="Files" />
              {node.files.map((f) => (
                <FileLink key={f} path={f} />
              ))}
            </div>
          ) : null}
          {node.entries.map((entry) => (
            <VerifyRow key={entry.text} node={node} entry={entry} trusted={trusted} now={now} planFile={planFile} />
          ))}
        </div>
      ) : null}
      {open && node.children.length > 0 ? (
        <ul class="pw-todo-children" role="group">
          {node.children.map((c) => (
            <TodoNode key={c.path} node={c} depth={depth + 1} trusted={trusted} now={now} planFile={planFile} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/** The node at an index path ("2.1"). */
function nodeAt(items: readonly TrackerNode[], path: string): TrackerNode | undefined {
  let nodes = items;
  let found: TrackerNode | undefined;
  for (const part of path.split('.')) {
    found = nodes[Number(part) - 1];
    if (!found) return undefined;
    nodes = found.children;
  }
  return found;
}

function awaitingNode(nodes: readonly TrackerNode[]): TrackerNode | undefined {
  for (const n of nodes) {
    if (n.awaitingCheck) return n;
    const inner = awaitingNode(n.children);
    if (inner) return inner;
  }
  return undefined;
}

/** The tracker's one line: the engine's counts and the step the build is at (or comes to next). */
export function trackerLine(tracker: Tracker): { counts: string; step: string; status: TrackerStatus } {
  const c = tracker.counts;
  const counts = `${c.done}/${c.total}`;
  if (c.total > 0 && c.done === c.total) return { counts, step: 'all steps done', status: 'completed' };
  const waiting = awaitingNode(tracker.items);
  if (waiting) {
    return { counts, step: `step ${waiting.path} awaits your check: ${waiting.description}`, status: waiting.status };
  }
  const path = activePath(tracker.items);
  const node = path ? nodeAt(tracker.items, path) : undefined;
  if (!node) return { counts, step: c.blocked > 0 ? `${c.blocked} blocked` : '', status: 'blocked' };
  const where = node.status === 'in_progress' ? `step ${node.path}` : `next: step ${node.path}`;
  return { counts, step: `${where}: ${node.description}`, status: node.status };
}

function TodoTreeView({ tracker, trusted }: { tracker: Tracker; trusted: boolean }) {
  const { ui } = usePanel();
  const uiState = useUiState();
  const open = uiState.expanded['tracker'] ?? false;
  const now = useNow(AGE_REFRESH_MS);
  const section = useRef<HTMLElement>(null);
  const list = useRef<HTMLUListElement>(null);
  // One Tab stop: the steps are a tree, arrows move between them and into their controls.
  useEffect(() => {
    if (!list.current) return undefined;
    return installRoving(list.current, { rows: '.pw-todo-row', controlsOf: (row) => row.parentElement ?? row });
  }, [open]);
  const active = activePath(tracker.items);
  useEffect(() => {
    const row = active ? section.current?.querySelector<HTMLElement>(`li[data-path="${active}"] > .pw-todo-row`) : null;
    if (section.current && row) revealRow(section.current, row);
  }, [active, open]);
  const line = trackerLine(tracker);
  const c = tracker.counts;
  const percent = tracker.percent;
  const parts = [
    `${c.done}/${c.total} done`,
    c.inProgress > 0 ? `${c.inProgress} in progress` : '',
    c.blocked > 0 ? `${c.blocked} blocked` : '',
    c.pending > 0 ? `${c.pending} pending` : '',
  ].filter(Boolean);
  return (
    <section ref={section} class={`pw-tracker${open ? ' pw-tracker-open' : ''}`} aria-label="Task tracker">
      <button
        type="button"
        class="pw-tracker-line"
        aria-expanded={open}
        title={open ? 'Hide the steps' : 'Show the steps'}
        onClick={() => ui.setExpanded('tracker', !open)}
      >
        <Icon name={open ? 'chevron-down' : 'chevron-right'} />
        <span class={`pw-tracker-line-status pw-status-${line.status}`}>
          <Icon name={STATUS[line.status].icon} label={STATUS[line.status].label} class="pw-status-icon" />
        </span>
        <span class="pw-tracker-line-counts">{line.counts}</span>
        {line.step ? (
          <>
            <span aria-hidden="true">·</span>
            <RichText text={line.step} format="inline" class="pw-tracker-line-step" />
          </>
        ) : null}
        <span class="pw-tracker-line-percent">{percent}%</span>
      </button>
      {open ? (
        <div class="pw-tracker-body">
          <header class="pw-tracker-head">
            <Icon name="checklist" />
            <span class="pw-tracker-title">{tracker.title}</span>
            <span class="pw-tracker-counts">
              {parts.join(' · ')} · {percent}%
            </span>
            {tracker.planFile ? <FileLink path={tracker.planFile} label="plan" /> : null}
          </header>
          <progress class="pw-tracker-progress" max={100} value={percent} aria-label={`${percent}% complete`} />
          <ul ref={list} class="pw-todo-list" role="tree" aria-label="Plan steps">
            {tracker.items.map((n) => (
              <TodoNode key={n.path} node={n} depth={1} trusted={trusted} now={now} planFile={tracker.planFile} />
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

export const TodoTree = pure(TodoTreeView);
