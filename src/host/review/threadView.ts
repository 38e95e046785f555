/**
 * How one review thread looks in the editor, computed from the engine's `ReviewThreadInfo` alone
 * (no VS Code here, so it is tested directly): the lines it covers, its label, its comments with
 * their authors and verdicts, and an outdated thread's old text quoted under its first comment.
 */
import type { ReviewThreadInfo } from '../../core/api/plans';

export interface CommentView {
  readonly author: string;
  /** Markdown. */
  readonly body: string;
  /** Shown beside the author: "addressed", "declined". */
  readonly label?: string;
}

export interface ThreadView {
  readonly id: string;
  /** 0-based, inclusive lines. */
  readonly startLine: number;
  readonly endLine: number;
  readonly label: string;
  readonly resolved: boolean;
  /** `planThread.open` or `planThread.resolved` (menus key on it). */
  readonly contextValue: string;
  readonly comments: readonly CommentView[];
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
}

export function threadView(t: ReviewThreadInfo): ThreadView {
  const outdated = t.outdated
    ? t.outdated.vanished
      ? ' · outdated: the element was removed'
      : ` · outdated since revision ${t.outdated.since}`
    : '';
  const comments: CommentView[] = t.comments.map((c, i) => {
    // After the comment, so the thread's first line (the Comments panel's preview) is its own words.
    const was =
      i === 0 && t.outdated
        ? `\n\n*Written on revision ${t.outdated.revision}, where it read:*\n\n${quote(t.outdated.text)}`
        : '';
    const reason = c.reason ? `\n\n*Reason:* ${c.reason}` : '';
    return {
      author: c.author === 'person' ? 'You' : 'Planner',
      body: `${c.body}${reason}${was}`,
      ...(c.verdict ? { label: c.verdict } : {}),
    };
  });
  return {
    id: t.id,
    startLine: Math.max(0, t.range.start - 1),
    endLine: Math.max(0, t.range.end - 1),
    label: `${t.id} · ${t.label}${outdated}`,
    resolved: t.status === 'resolved',
    contextValue: t.status === 'resolved' ? 'planThread.resolved' : 'planThread.open',
    comments,
  };
}
