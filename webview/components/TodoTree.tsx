/**
 * The task tracker as a tree of any depth: status icons, a header with counts and percent,
 * expand/collapse, files as links, verify commands with a Run button and their last result.
 */
import type { LastVerify, Tracker, TrackerNode, TrackerStatus } from '../../src/protocol';
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

export interface TrackerCounts {
  pending: number;
  in_progress: number;
  completed: number;
  blocked: number;
  total: number;
  percent: number;
}

/** Counts over every item at every depth; percent is completed of all, rounded down. */
export function countTracker(items: readonly TrackerNode[]): TrackerCounts {
  const c = { pending: 0, in_progress: 0, completed: 0, blocked: 0, total: 0, percent: 0 };
  const walk = (nodes: readonly TrackerNode[]) => {
    for (const n of nodes) {
      c[n.status] += 1;
      c.total += 1;
      walk(n.children);
    }
  };
  walk(items);
  c.percent = c.total === 0 ? 0 : Math.floor((c.completed / c.total) * 100);
  return c;
}

export function describeAge(at: number, now: number): string {
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 45) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  return h < 24 ? `${h} h ago` : `${Math.round(h / 24)} d ago`;
}

export function describeVerify(v: LastVerify, now: number): { text: string; ok: boolean } {
  const age = describeAge(v.at, now);
  if (v.exitCode === 0) return { text: `passed ${age}`, ok: true };
  if (v.exitCode === null) return { text: `stopped before it finished, ${age}`, ok: false };
  return { text: `exit ${v.exitCode}, ${age}`, ok: false };
}

function TodoNode({ node, depth, trusted }: { node: TrackerNode; depth: number; trusted: boolean }) {
  const { post, ui } = usePanel();
  const uiState = useUiState();
  const hasDetails = node.files.length > 0 || node.verify.length > 0 || node.children.length > 0;
  const key = `tracker:${node.path}`;
  const open = uiState.expanded[key] ?? (node.children.length > 0 || node.status === 'in_progress');
  const status = STATUS[node.status];
  const now = Date.now();
  return (
    <li class={`pw-todo pw-status-${node.status}`}>
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
      </div>
      {open && (node.files.length > 0 || node.verify.length > 0) ? (
        <div class="pw-todo-details">
          {node.files.length > 0 ? (
            <div class="pw-todo-files">
              <Icon name="files" label="Files" />
              {node.files.map((f) => (
                <FileLink key={f} path={f} />
              ))}
            </div>
          ) : null}
          {node.verify.map((command) => {
            const last = node.lastVerify?.command === command ? describeVerify(node.lastVerify, now) : undefined;
            return (
              <div class="pw-verify" key={command}>
                <code class="pw-verify-cmd">{command}</code>
                <Button
                  appearance="secondary"
                  disabled={!trusted}
                  label={`Run ${command}`}
                  title={trusted ? `Run ${command}` : 'Verify runs are off in an untrusted workspace.'}
                  onClick={() => post({ type: 'runVerify', itemPath: node.path, command })}
                >
                  <Icon name="play" /> Run
                </Button>
                {last ? (
                  <span class={`pw-verify-result ${last.ok ? 'pw-ok' : 'pw-bad'}`}>
                    <Icon name={last.ok ? 'check' : 'close'} /> {last.text}
                  </span>
                ) : null}
              </div>
            );
          })}
        </div>
      ) : null}
      {open && node.children.length > 0 ? (
        <ul class="pw-todo-children">
          {node.children.map((c) => (
            <TodoNode key={c.path} node={c} depth={depth + 1} trusted={trusted} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

function TodoTreeView({ tracker, trusted }: { tracker: Tracker; trusted: boolean }) {
  const c = countTracker(tracker.items);
  const parts = [
    `${c.completed}/${c.total} done`,
    c.in_progress > 0 ? `${c.in_progress} in progress` : '',
    c.blocked > 0 ? `${c.blocked} blocked` : '',
    c.pending > 0 ? `${c.pending} pending` : '',
  ].filter(Boolean);
  return (
    <section class="pw-tracker pw-card" aria-label="Task tracker">
      <header class="pw-tracker-head">
        <Icon name="checklist" />
        <span class="pw-tracker-title">{tracker.title}</span>
        <span class="pw-tracker-counts">
          {parts.join(' · ')} · {c.percent}%
        </span>
        {tracker.planFile ? <FileLink path={tracker.planFile} label="plan" /> : null}
      </header>
      <progress class="pw-tracker-progress" max={100} value={c.percent} aria-label={`${c.percent}% complete`} />
      <ul class="pw-todo-list">
        {tracker.items.map((n) => (
          <TodoNode key={n.path} node={n} depth={1} trusted={trusted} />
        ))}
      </ul>
    </section>
  );
}

export const TodoTree = pure(TodoTreeView);
