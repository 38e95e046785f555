/**
 * Plan review in the editor: a `CommentController` for plan files. "Add comment" on the gutter
 * opens a thread the engine anchors to the plan element under the line; the planner's replies,
 * outdated marks and resolutions come from the engine's review (`<stem>.review.json`) and its
 * `review.thread.*` events, and are only rendered here. "Request changes" (the comment widget, the
 * plan's CodeLens row, the gate's "No, stay in Plan mode") sends every unresolved thread. Saving
 * the plan while it awaits approval hands the edit to the engine; an invalid edit's problems
 * become diagnostics on its lines.
 */
import * as vscode from 'vscode';
import type { Session } from '../../core/api/sessions';
import type { ParsedPlan, PlanChange, PlanWorkspace, ReviewBook, ReviewResult } from '../../core/api/plans';
import { DisposableStore } from '../disposables';
import type { HostLog } from '../log';
import { threadView } from './threadView';

export const REVIEW_CONTROLLER_ID = 'planwise-review';

export interface ReviewCommentsDeps {
  /** The session now, if any: a saved plan file is its hand edit while it awaits approval. */
  readonly session: () => Session | undefined;
  /** The workspace's plans: their review book is the one every host and session writes through. */
  readonly plans: () => PlanWorkspace | undefined;
  readonly isPlanFile: (path: string) => boolean;
  /** Sends the revision request (the session at the gate decides 'revise'); false when no plan awaits approval. */
  readonly requestChanges: (note?: string) => Promise<boolean>;
  /** The threads of a plan were rendered again (the CodeLens row counts them). */
  readonly changed?: () => void;
  readonly log: HostLog;
}

type PlanThread = vscode.CommentThread & { planwiseId?: string; planFile?: string };

export class ReviewComments implements vscode.Disposable {
  private readonly store = new DisposableStore();
  private readonly controller: vscode.CommentController;
  private readonly threads = new Map<string, Map<string, PlanThread>>();
  /** The version of each plan's open document when its threads were last placed. */
  private readonly placedOn = new Map<string, number>();
  private readonly diagnostics: vscode.DiagnosticCollection;

  constructor(private readonly deps: ReviewCommentsDeps) {
    this.controller = vscode.comments.createCommentController(REVIEW_CONTROLLER_ID, 'Planwise plan review');
    this.store.add(this.controller);
    this.controller.options = {
      prompt: 'Comment on this part of the plan',
      placeHolder: 'What should change here? It goes to the planner with Request changes.',
    };
    this.controller.commentingRangeProvider = {
      provideCommentingRanges: (doc) =>
        doc.uri.scheme === 'file' && deps.isPlanFile(doc.uri.fsPath)
          ? [new vscode.Range(0, 0, Math.max(0, doc.lineCount - 1), 0)]
          : [],
    };
    this.diagnostics = this.store.add(vscode.languages.createDiagnosticCollection('planwise-plan'));
    this.store.add(vscode.workspace.onDidOpenTextDocument((d) => void this.refreshDocument(d)));
    this.store.add(vscode.workspace.onDidSaveTextDocument((d) => void this.saved(d)));
    this.store.add(vscode.workspace.onDidChangeTextDocument((e) => this.textChanged(e)));
    for (const d of vscode.workspace.textDocuments) void this.refreshDocument(d);
  }

  /** A session event: review changes and new revisions re-render that plan's threads. */
  onEvent(e: { type: string; plan_file?: string }): void {
    if (e.type.startsWith('review.') || e.type === 'plan.approval.requested') {
      if (e.plan_file) void this.refresh(e.plan_file);
    }
  }

  /** A plan change the workspace published: the threads as its plan carries them. */
  planChanged(change: PlanChange): void {
    if (change.plan) this.render(change.plan);
  }

  /** Reads the plan through the workspace and renders its threads where the engine anchored them. */
  async refresh(planFile: string): Promise<void> {
    try {
      this.render(await this.workspace().plan(planFile));
    } catch (err) {
      this.deps.log.warn(`review: ${planFile}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private render(plan: ParsedPlan): void {
    const planFile = plan.file;
    if (!plan.review) {
      if (plan.reviewError !== undefined) this.deps.log.warn(`review: ${planFile}: ${plan.reviewError}`);
      return;
    }
    const views = plan.review.threads.map(threadView);
    const uri = vscode.Uri.file(planFile);
    const shown = this.threads.get(planFile) ?? new Map<string, PlanThread>();
    this.threads.set(planFile, shown);
    for (const [id, thread] of shown) {
      if (!views.some((v) => v.id === id)) {
        thread.dispose();
        shown.delete(id);
      }
    }
    // VS Code moves a thread with the edits of its document (a reload from disk collapses it into
    // the replaced lines) without telling the extension, which then takes an equal range for no
    // change: once the document changed, each range is set anew.
    const version = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === planFile)?.version;
    const moved = version !== undefined && this.placedOn.get(planFile) !== version;
    if (version !== undefined) this.placedOn.set(planFile, version);
    for (const v of views) {
      const range = new vscode.Range(v.startLine, 0, v.endLine, 0);
      const comments = v.comments.map((c): vscode.Comment => ({
        body: new vscode.MarkdownString(c.body),
        mode: vscode.CommentMode.Preview,
        author: { name: c.author },
        ...(c.label ? { label: c.label } : {}),
      }));
      let thread = shown.get(v.id);
      if (!thread) {
        thread = this.controller.createCommentThread(uri, range, comments) as PlanThread;
        thread.planwiseId = v.id;
        thread.planFile = planFile;
        shown.set(v.id, thread);
      } else {
        if (moved && thread.range?.isEqual(range)) thread.range = new vscode.Range(v.endLine + 1, 0, v.endLine + 1, 0);
        thread.range = range;
        thread.comments = comments;
      }
      thread.label = v.label;
      thread.contextValue = v.contextValue;
      thread.canReply = !v.resolved;
      thread.state = v.resolved ? vscode.CommentThreadState.Resolved : vscode.CommentThreadState.Unresolved;
      if (v.resolved) thread.collapsibleState = vscode.CommentThreadCollapsibleState.Collapsed;
    }
    this.deps.changed?.();
  }

  dispose(): void {
    for (const shown of this.threads.values()) for (const t of shown.values()) t.dispose();
    this.threads.clear();
    this.store.dispose();
  }

  private workspace(): PlanWorkspace {
    const plans = this.deps.plans();
    if (!plans) throw new Error('no workspace folder is open');
    return plans;
  }

  private book(): ReviewBook {
    return this.workspace().review;
  }

  /** The plan's document now holds the file as on disk (a new revision, a revert): its threads are placed again. */
  private textChanged(e: vscode.TextDocumentChangeEvent): void {
    const doc = e.document;
    if (e.contentChanges.length === 0 || doc.isDirty || doc.uri.scheme !== 'file') return;
    if (!this.threads.has(doc.uri.fsPath)) return;
    void this.refresh(doc.uri.fsPath);
  }

  private async refreshDocument(doc: vscode.TextDocument): Promise<void> {
    if (doc.uri.scheme !== 'file' || !this.deps.isPlanFile(doc.uri.fsPath)) return;
    if (this.threads.has(doc.uri.fsPath)) return;
    await this.refresh(doc.uri.fsPath);
  }

  /** "Add comment" (a new thread from the gutter) or a reply on an existing thread. */
  async addComment(reply: vscode.CommentReply): Promise<void> {
    const thread = reply.thread as PlanThread;
    const file = thread.planFile ?? thread.uri.fsPath;
    const text = reply.text.trim();
    if (text === '') return;
    let r: ReviewResult;
    if (thread.planwiseId === undefined) {
      r = await this.book().add(file, { line: (thread.range?.start.line ?? 0) + 1 }, text);
      thread.dispose(); // the engine's thread replaces the draft, anchored to its element
    } else {
      r = await this.book().reply(file, thread.planwiseId, { author: 'person', body: text });
    }
    if (!r.ok) void vscode.window.showWarningMessage(`Planwise: the comment was not added: ${r.error}.`);
    await this.refresh(file);
  }

  async setResolved(thread: vscode.CommentThread, resolved: boolean): Promise<void> {
    const t = thread as PlanThread;
    if (t.planwiseId === undefined || t.planFile === undefined) return;
    const r = await this.book().resolve(t.planFile, t.planwiseId, resolved);
    if (!r.ok) void vscode.window.showWarningMessage(`Planwise: ${r.error}.`);
    await this.refresh(t.planFile);
  }

  /** "Request changes": a comment typed in the widget is added first, then the request is sent. */
  async requestChanges(reply?: vscode.CommentReply): Promise<void> {
    if (reply && reply.text.trim() !== '') await this.addComment(reply);
    const sent = await this.deps.requestChanges();
    if (!sent) {
      void vscode.window.showInformationMessage(
        'Planwise: no plan is waiting for approval. Your comments are kept and go to the planner with the next revision request.',
      );
    }
  }

  /** The person saved a plan file: the engine decides whether it is the next revision. */
  private async saved(doc: vscode.TextDocument): Promise<void> {
    const file = doc.uri.fsPath;
    if (doc.uri.scheme !== 'file' || !this.deps.isPlanFile(file)) return;
    const session = this.deps.session();
    if (!session) return;
    const outcome = await session.planEdited(file);
    if (outcome.kind === 'invalid') {
      this.diagnostics.set(
        doc.uri,
        outcome.errors.map((e) => {
          const line = Math.max(0, Math.min(doc.lineCount - 1, (e.line ?? 1) - 1));
          const d = new vscode.Diagnostic(
            doc.lineAt(line).range,
            e.hint ? `${e.message} (${e.hint})` : e.message,
            vscode.DiagnosticSeverity.Error,
          );
          d.source = 'Planwise';
          return d;
        }),
      );
    } else if (outcome.kind !== 'ignored') {
      this.diagnostics.delete(doc.uri);
    }
    await this.refresh(file);
  }
}
