/**
 * The repository's own instructions for agents: `AGENTS.md` at the workspace root, `CLAUDE.md`,
 * `.github/copilot-instructions.md`, and `.github/instructions/*.instructions.md` whose `applyTo`
 * globs match a file the session touches. They are read through the reader port and go after the
 * system prompt as one bounded block.
 *
 * The block's members are fixed the first time an agent (planning, build) asks for it, from what
 * the session touched by then; later turns read the same files again, so the block changes only
 * when a file does, and from the next turn. What becomes relevant later (a nested `AGENTS.md`, a
 * scoped file whose glob a tool call first matches) is added once, to that tool call's result, so
 * the request prefix stays as it was.
 */
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { WorkspaceReader } from '../ports';
import { compileGlob } from '../tools/glob';

import { DEFAULT_INSTRUCTIONS_MAX_BYTES, INSTRUCTION_SOURCES, type InstructionSource } from './instructionSources';

export { DEFAULT_INSTRUCTIONS_MAX_BYTES, INSTRUCTION_SOURCES, type InstructionSource } from './instructionSources';

export interface InstructionsConfig {
  /** Which sources are read (default: all); an empty list reads none. */
  readonly sources?: readonly InstructionSource[];
  /** The block's bound in bytes (default 16 KiB); each later addition has the same bound. */
  readonly maxBytes?: number;
}

/** One instruction file as it was used. */
export interface InstructionFileInfo {
  /** Workspace-relative, forward slashes. */
  readonly path: string;
  /** The file's size in bytes (UTF-8). */
  readonly bytes: number;
  /** Bytes of it that reached the model (less than `bytes` when the bound cut it). */
  readonly shownBytes: number;
  /** `workspace`: applies everywhere; `folder`: a nested AGENTS.md; `applyTo`: a scoped file. */
  readonly scope: 'workspace' | 'folder' | 'applyTo';
  /** A scoped file's globs, as written. */
  readonly applyTo?: string;
}

/** The block for one agent, as the next request carries it. */
export interface InstructionsBlock {
  /** Appended to the system prompt (empty when no file applies). */
  readonly text: string;
  readonly files: readonly InstructionFileInfo[];
  readonly truncated: boolean;
  readonly maxBytes: number;
  /** Whether the text differs from what this agent's previous turn carried (always true the first time). */
  readonly changed: boolean;
  readonly first: boolean;
}

/** Text to add to one tool call's result, with the files it came from. */
export interface InstructionsAddition {
  readonly text: string;
  readonly files: readonly InstructionFileInfo[];
  readonly truncated: boolean;
}

interface Candidate {
  readonly path: string;
  readonly scope: InstructionFileInfo['scope'];
  readonly applyTo?: string;
  readonly body: string;
  readonly bytes: number;
}

interface Scoped {
  readonly path: string;
  readonly applyTo: string;
  readonly matches: (rel: string) => boolean;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: false });
const utf8 = (s: string) => encoder.encode(s).length;

/** Tools whose `path` argument reads, lists or changes a place in the workspace. */
const PATH_TOOLS = new Set(['read_file', 'list_files', 'edit_file', 'write_file', 'delete_file']);
/** Paths named in a message that are checked against the workspace. */
const MAX_MENTIONS = 64;

/** `applyTo` from a file's front matter, and the body after it. */
export function parseFrontMatter(text: string): { applyTo?: string; body: string } {
  const m = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) return { body: text };
  const line = /^applyTo[ \t]*:[ \t]*(.*)$/m.exec(m[1]!);
  const raw = line?.[1]?.trim() ?? '';
  const applyTo = raw.replace(/^(['"])(.*)\1$/, '$2').trim();
  return { ...(applyTo !== '' ? { applyTo } : {}), body: text.slice(m[0].length) };
}

/** A matcher for `applyTo` (comma-separated globs, `**` for every file). */
export function applyToMatcher(applyTo: string): (rel: string) => boolean {
  const globs = applyTo
    .split(',')
    .map((g) => g.trim().replace(/^\.\//, ''))
    .filter((g) => g !== '');
  const matchers = globs.map((g) => (g === '**' || g === '**/*' ? () => true : compileGlob(g)));
  return (rel) => matchers.some((m) => m(rel));
}

/** Cuts `text` to at most `max` UTF-8 bytes, never inside a character. */
function cutBytes(text: string, max: number): string {
  const bytes = encoder.encode(text);
  if (bytes.length <= max) return text;
  return decoder.decode(bytes.subarray(0, max)).replace(/\uFFFD$/, '');
}

function kib(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

/**
 * Lays out candidates within `max` bytes of file text: each file whole while it fits, the first
 * that does not cut, the rest left out, and a note saying so that the model and the person see.
 */
function layout(
  candidates: readonly Candidate[],
  max: number,
  heading: string,
): { text: string; files: InstructionFileInfo[]; truncated: boolean } {
  let left = max;
  const parts: string[] = [];
  const files: InstructionFileInfo[] = [];
  let truncated = false;
  for (const c of candidates) {
    const shown = left <= 0 ? '' : cutBytes(c.body, left);
    const shownBytes = utf8(shown);
    left -= shownBytes;
    if (shownBytes < c.bytes) truncated = true;
    files.push({
      path: c.path,
      bytes: c.bytes,
      shownBytes,
      scope: c.scope,
      ...(c.applyTo !== undefined ? { applyTo: c.applyTo } : {}),
    });
    if (shownBytes === 0) continue;
    const attr = c.applyTo !== undefined ? ` applyTo="${c.applyTo.replace(/"/g, "'")}"` : '';
    parts.push(`<file path="${c.path}"${attr}>\n${shown.replace(/\s+$/, '')}\n</file>`);
  }
  if (truncated) {
    const total = candidates.reduce((n, c) => n + c.bytes, 0);
    const cut = files.filter((f) => f.shownBytes < f.bytes).map((f) => f.path);
    parts.push(
      `[Instructions cut at ${kib(max)} of ${kib(total)}: ${cut.join(', ')} ${cut.length === 1 ? 'is' : 'are'} not shown whole. The person can raise planwise.instructions.maxKilobytes.]`,
    );
  }
  if (parts.length === 0) return { text: '', files, truncated };
  return {
    text: `<repository_instructions>\n${heading}\n${parts.join('\n')}\n</repository_instructions>`,
    files,
    truncated,
  };
}

const BLOCK_HEADING =
  "The repository's own instructions for agents. Follow them where they apply to the task; the rules above come first.";
const ADDITION_HEADING = 'Instructions that apply to the files just touched (the rules above come first):';

export class InstructionSet {
  private readonly sources: ReadonlySet<InstructionSource>;
  private readonly maxBytes: number;
  /** Workspace-relative files and folders the session has touched. */
  private readonly touched = new Set<string>();
  /** Instruction files the model has been given (in a block or a tool result). */
  private readonly delivered = new Set<string>();
  /** Each agent's block members, fixed at its first turn, and its last text. */
  private readonly members = new Map<'plan' | 'build', readonly string[]>();
  private readonly last = new Map<'plan' | 'build', string>();
  private scopedList: Promise<readonly Scoped[]> | undefined;

  constructor(
    private readonly reader: WorkspaceReader,
    private readonly root: string,
    config: InstructionsConfig = {},
  ) {
    this.sources = new Set(config.sources ?? INSTRUCTION_SOURCES);
    this.maxBytes = Math.max(0, config.maxBytes ?? DEFAULT_INSTRUCTIONS_MAX_BYTES);
  }

  /** The bound in bytes. */
  get bound(): number {
    return this.maxBytes;
  }

  /** Workspace-relative form of `p` (absolute or relative to the root), or undefined outside it. */
  private rel(p: string): string | undefined {
    const abs = isAbsolute(p) ? p : resolve(this.root, p);
    const r = relative(this.root, abs);
    if (r.startsWith('..') || isAbsolute(r)) return undefined;
    return r.split(sep).join('/');
  }

  private abs(rel: string): string {
    return rel === '' ? this.root : resolve(this.root, ...rel.split('/'));
  }

  private async readText(rel: string): Promise<string | undefined> {
    try {
      const st = await this.reader.stat(this.abs(rel));
      if (!st || st.type !== 'file') return undefined;
      return decoder.decode(await this.reader.readFile(this.abs(rel)));
    } catch {
      return undefined;
    }
  }

  /** The `.instructions.md` files with an `applyTo`, listed once per session. */
  private scoped(): Promise<readonly Scoped[]> {
    if (!this.sources.has('.github/instructions')) return Promise.resolve([]);
    return (this.scopedList ??= (async () => {
      let entries;
      try {
        entries = await this.reader.readDir(this.abs('.github/instructions'));
      } catch {
        return [];
      }
      const names = entries
        .filter((e) => e.type === 'file' && e.name.endsWith('.instructions.md'))
        .map((e) => e.name)
        .sort();
      const out: Scoped[] = [];
      for (const name of names) {
        const path = `.github/instructions/${name}`;
        const text = await this.readText(path);
        const applyTo = text !== undefined ? parseFrontMatter(text).applyTo : undefined;
        if (applyTo !== undefined) out.push({ path, applyTo, matches: applyToMatcher(applyTo) });
      }
      return out;
    })());
  }

  /** Records a workspace file or folder the session touched. */
  touch(path: string): void {
    const r = this.rel(path);
    if (r !== undefined) this.touched.add(r);
  }

  /** Records the workspace files a message names (`src/a.ts`, `docs/x.md:12`) that exist. */
  async noteMessage(text: string): Promise<void> {
    const words = new Set<string>();
    // One pass over the words (split on spaces, quotes, brackets and commas): a word with a `/` or
    // a dot may name a file; a trailing `:12` or sentence punctuation is dropped.
    for (const raw of text.split(/[\s`'"()<>[\]{},;]+/)) {
      const w = raw
        .replace(/(?::\d+)+$/, '')
        .replace(/[.:!?]+$/, '')
        .replace(/^\.\//, '');
      if (w === '' || w.length > 300 || !/[./]/.test(w)) continue;
      words.add(w);
      if (words.size >= MAX_MENTIONS) break;
    }
    for (const w of words) {
      const r = this.rel(w);
      if (r === undefined || r === '' || this.touched.has(r)) continue;
      try {
        if (await this.reader.stat(this.abs(r))) this.touched.add(r);
      } catch {
        // not a workspace path
      }
    }
  }

  /** The instruction files that apply to the whole session now, in load order. */
  private async applicable(): Promise<string[]> {
    const out: string[] = [];
    for (const source of ['AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md'] as const) {
      if (this.sources.has(source)) out.push(source);
    }
    for (const s of await this.scoped()) {
      if ([...this.touched].some((t) => s.matches(t))) out.push(s.path);
    }
    return out;
  }

  private async candidate(path: string, scope: Candidate['scope']): Promise<Candidate | undefined> {
    const text = await this.readText(path);
    if (text === undefined) return undefined;
    const { applyTo, body } = scope === 'applyTo' ? parseFrontMatter(text) : { applyTo: undefined, body: text };
    if (body.trim() === '') return undefined;
    return { path, scope, body, bytes: utf8(body), ...(applyTo !== undefined ? { applyTo } : {}) };
  }

  /**
   * The block for `agent`'s next turn: its members fixed at the first call, their text read again
   * each time (so an edited file reaches the next turn, and only then).
   */
  async block(agent: 'plan' | 'build'): Promise<InstructionsBlock> {
    const first = !this.members.has(agent);
    if (first) this.members.set(agent, await this.applicable());
    const candidates: Candidate[] = [];
    for (const path of this.members.get(agent)!) {
      const c = await this.candidate(path, path.startsWith('.github/instructions/') ? 'applyTo' : 'workspace');
      if (c) candidates.push(c);
    }
    const laid = layout(candidates, this.maxBytes, BLOCK_HEADING);
    for (const f of laid.files) this.delivered.add(f.path);
    const changed = first || this.last.get(agent) !== laid.text;
    this.last.set(agent, laid.text);
    return { text: laid.text, files: laid.files, truncated: laid.truncated, maxBytes: this.maxBytes, changed, first };
  }

  /**
   * After a tool call: the instructions that apply to the place it read, listed or changed and
   * that the model was not given yet (nested `AGENTS.md` files from the outermost folder in, then
   * scoped files whose globs match it). Each is added once per session.
   */
  async afterCall(toolName: string, args: Record<string, unknown>): Promise<InstructionsAddition | undefined> {
    if (!PATH_TOOLS.has(toolName)) return undefined;
    const raw = typeof args['path'] === 'string' && args['path'] !== '' ? args['path'] : '.';
    const target = this.rel(raw);
    if (target === undefined) return undefined;
    this.touched.add(target);
    const candidates: Candidate[] = [];
    if (this.sources.has('AGENTS.md') && target !== '') {
      const st = await this.reader.stat(this.abs(target)).catch(() => undefined);
      const folder = st?.type === 'dir' ? target : dirname(target) === '.' ? '' : dirname(target);
      const chain: string[] = [];
      for (let f = folder; f !== '' && f !== '.'; f = dirname(f) === '.' ? '' : dirname(f)) chain.unshift(f);
      for (const f of chain) {
        const path = `${f}/AGENTS.md`;
        if (this.delivered.has(path)) continue;
        this.delivered.add(path);
        // Reading the folder's AGENTS.md itself gives the model its text already.
        if (path === target) continue;
        const c = await this.candidate(path, 'folder');
        if (c) candidates.push(c);
      }
    }
    for (const s of await this.scoped()) {
      if (this.delivered.has(s.path) || !s.matches(target)) continue;
      this.delivered.add(s.path);
      if (s.path === target) continue;
      const c = await this.candidate(s.path, 'applyTo');
      if (c) candidates.push(c);
    }
    if (candidates.length === 0) return undefined;
    const laid = layout(candidates, this.maxBytes, ADDITION_HEADING);
    return laid.text === '' ? undefined : { text: laid.text, files: laid.files, truncated: laid.truncated };
  }
}
