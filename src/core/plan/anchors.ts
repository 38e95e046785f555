/**
 * Review anchors: a comment thread on a plan is attached to a plan element (the title, the
 * summary, step N or its files/verify part, a test item, an assumption), never to a bare line
 * number. This module finds a plan's elements with their current line ranges, names the element
 * under a line, and carries an anchor from revision N to N+1: steps are paired by identity with
 * the plan diff's `matchSteps`, so a reordered step keeps its threads.
 */
import {
  ASSUMPTIONS,
  HEADING,
  IMPLEMENTATION_STEPS,
  SUMMARY,
  TEST_CASES,
  sectionLines,
  splitSections,
} from './sections';
import type { PlanLine } from './sections';
import { labelled, parseSteps } from './steps';
import { splitArrows } from './text';
import { blankTrackerBlock } from './trackerBlock';
import { matchSteps, stepTextWithoutNumber } from './diff';
import { validatePlan } from './validator';

export type ElementKind = 'title' | 'summary' | 'step' | 'test' | 'assumption';
export type StepPart = 'files' | 'verify';

/** Which element a thread is attached to. `index` is 1-based (step position, test item, assumption). */
export interface PlanAnchor {
  readonly kind: ElementKind;
  readonly index?: number;
  /** For a step: its `files:` or `verify:` part rather than the whole step. */
  readonly part?: StepPart;
}

/** One element of a plan file with its place in the file. */
export interface PlanElement {
  readonly anchor: PlanAnchor;
  /** 1-based, inclusive lines of the plan file. */
  readonly start: number;
  readonly end: number;
  /** The element's text as written (a step part: its segment or lines). */
  readonly text: string;
}

/** How people and the planner read an anchor: "step 2 (files)", "assumption 1", "the summary". */
export function anchorLabel(a: PlanAnchor): string {
  switch (a.kind) {
    case 'title':
      return 'the plan as a whole';
    case 'summary':
      return 'the summary';
    case 'step':
      return `step ${a.index ?? 0}${a.part ? ` (${a.part})` : ''}`;
    case 'test':
      return `test item ${a.index ?? 0}`;
    case 'assumption':
      return `assumption ${a.index ?? 0}`;
  }
}

export function sameAnchor(a: PlanAnchor, b: PlanAnchor): boolean {
  return a.kind === b.kind && (a.index ?? 0) === (b.index ?? 0) && (a.part ?? '') === (b.part ?? '');
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/** The item lines of a list section, as `sectionItems` counts them (one item per line). */
function itemLines(lines: readonly PlanLine[]): PlanLine[] {
  return lines.filter((l) => !(l.inFence ? FENCE : HEADING).test(l.text) && l.text.trim().length > 0);
}

function itemText(l: PlanLine): string {
  return l.text
    .trim()
    .replace(/^(?:[-*+]|\d+[.):])\s+/, '')
    .replace(/^\[[ xX~!-]\]\s+/, '')
    .trim();
}

function partKind(text: string): StepPart | undefined {
  const label = labelled(text.trim().replace(/^[-*+]\s+/, ''));
  if (!label) return undefined;
  if (label.kind === 'verify') return 'verify';
  return label.kind === 'target' ? 'files' : undefined;
}

/** Every element of a plan file (an embedded tracker block is ignored), in file order. */
export function planElements(markdown: string): PlanElement[] {
  const split = splitSections(blankTrackerBlock(markdown));
  const out: PlanElement[] = [];
  out.push({ anchor: { kind: 'title' }, start: split.titleLine ?? 1, end: split.titleLine ?? 1, text: split.title });

  const summary = itemLines(sectionLines(split, SUMMARY));
  const first = summary[0];
  const last = summary[summary.length - 1];
  if (first && last) {
    out.push({
      anchor: { kind: 'summary' },
      start: first.line,
      end: last.line,
      text: summary.map((l) => l.text.trim()).join('\n'),
    });
  }

  const stepLines = sectionLines(split, IMPLEMENTATION_STEPS);
  for (const step of parseSteps(stepLines)) {
    const at = stepLines.findIndex((l) => l.line === step.line);
    const own = stepLines.slice(at, at + step.text.split('\n').length);
    while (own.length > 1 && (own[own.length - 1] as PlanLine).text.trim() === '') own.pop();
    const end = (own[own.length - 1] as PlanLine).line;
    out.push({ anchor: { kind: 'step', index: step.index }, start: step.line, end, text: step.text.trimEnd() });
    for (const part of ['files', 'verify'] as const) {
      const inline = splitArrows(own[0]?.text ?? '')
        .slice(1)
        .filter(
          (s) =>
            partKind(s) === part || (part === 'files' && partKind(s) === undefined && !/^\s*outcomes?\s*:/i.test(s)),
        );
      const lines = own.slice(1).filter((l) => !l.inFence && partKind(l.text) === part);
      const parts = [...inline.map((s) => s.trim()), ...lines.map((l) => l.text.trim())];
      if (parts.length === 0) continue;
      const lineNos = [...(inline.length > 0 ? [step.line] : []), ...lines.map((l) => l.line)];
      out.push({
        anchor: { kind: 'step', index: step.index, part },
        start: Math.min(...lineNos),
        end: Math.max(...lineNos),
        text: parts.join('\n'),
      });
    }
  }

  itemLines(sectionLines(split, TEST_CASES)).forEach((l, i) =>
    out.push({ anchor: { kind: 'test', index: i + 1 }, start: l.line, end: l.line, text: itemText(l) }),
  );
  itemLines(sectionLines(split, ASSUMPTIONS)).forEach((l, i) =>
    out.push({ anchor: { kind: 'assumption', index: i + 1 }, start: l.line, end: l.line, text: itemText(l) }),
  );
  return out;
}

/** The element `anchor` names in this plan, or undefined when the plan has no such element. */
export function locateAnchor(markdown: string | readonly PlanElement[], anchor: PlanAnchor): PlanElement | undefined {
  const elements = typeof markdown === 'string' ? planElements(markdown) : markdown;
  return elements.find((e) => sameAnchor(e.anchor, anchor));
}

/**
 * The element a comment on `line` (1-based) is about: the narrowest element that holds the line
 * (a step's `verify:` line before its step; a one-line step as a whole), the summary for its heading, and the plan as a whole
 * for any other line.
 */
export function elementAtLine(markdown: string, line: number): PlanElement {
  const elements = planElements(markdown);
  const holding = elements.filter((e) => e.anchor.kind !== 'title' && e.start <= line && line <= e.end);
  // Narrowest first; on a one-line step its inline parts tie with it, and the whole step wins.
  holding.sort((a, b) => a.end - a.start - (b.end - b.start) || (a.anchor.part ? 1 : 0) - (b.anchor.part ? 1 : 0));
  if (holding[0]) return holding[0];
  const split = splitSections(blankTrackerBlock(markdown));
  const heading = split.sections.find((s) => s.line === line);
  if (heading?.name === SUMMARY) {
    const summary = elements.find((e) => e.anchor.kind === 'summary');
    if (summary) return summary;
  }
  return elements[0] as PlanElement;
}

/**
 * An anchor written as a prefix of a comment, as the CLI takes it: `step 2: …`, `step 2 files: …`,
 * `step 2 verify: …`, `summary: …`, `assumption 1: …`, `test 1: …`, `plan: …`. A comment without
 * a prefix is about the plan as a whole.
 */
export function anchorFromPrefix(comment: string): { anchor: PlanAnchor; body: string } {
  const m =
    /^\s*(?:(summary|plan|title)|(step|assumption|test(?:\s+item)?)\s+(\d+)(?:\s*\(?\s*(files|verify)\s*\)?)?)\s*:\s*([\s\S]*)$/i.exec(
      comment,
    );
  if (!m) return { anchor: { kind: 'title' }, body: comment.trim() };
  const body = (m[5] as string).trim();
  if (m[1]) return { anchor: { kind: m[1].toLowerCase() === 'summary' ? 'summary' : 'title' }, body };
  const word = (m[2] as string).toLowerCase();
  const kind: ElementKind = word === 'step' ? 'step' : word === 'assumption' ? 'assumption' : 'test';
  const index = Number(m[3]);
  const part = m[4]?.toLowerCase() as StepPart | undefined;
  return { anchor: { kind, index, ...(part && kind === 'step' ? { part } : {}) }, body };
}

/** Where an anchor went in the next revision. */
export interface Reanchored {
  readonly anchor: PlanAnchor;
  /** `same`: the element is there, unchanged; `changed`: there, with other text; `vanished`: gone (the anchor is the title). */
  readonly status: 'same' | 'changed' | 'vanished';
  /** The element's text in the old revision. */
  readonly oldText: string;
  /** The element's text in the new revision ('' when it vanished). */
  readonly newText: string;
}

function normalised(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Carries anchors from one revision's text to the next's. Steps are paired with the plan diff's
 * `matchSteps` (action text, then targets), so renumbering or reordering is not a change; a test
 * item or assumption keeps its thread when its text is found again, else pairs with the item now
 * at its position (changed), else vanishes.
 */
export function createReanchorer(
  before: string,
  after: string,
  parse: (text: string) => ReturnType<typeof validatePlan> = validatePlan,
): (anchor: PlanAnchor) => Reanchored {
  const oldElements = planElements(before);
  const newElements = planElements(after);
  const pairs = matchSteps(
    parse(blankTrackerBlock(before)).summary.steps,
    parse(blankTrackerBlock(after)).summary.steps,
  ).pairs;
  const listMatches = new Map<ElementKind, Map<number, number>>();
  for (const kind of ['test', 'assumption'] as const) {
    const olds = oldElements.filter((e) => e.anchor.kind === kind);
    const news = newElements.filter((e) => e.anchor.kind === kind);
    const taken = new Set<number>();
    const map = new Map<number, number>();
    for (const o of olds) {
      const n = news.find((e) => !taken.has(e.anchor.index!) && normalised(e.text) === normalised(o.text));
      if (n) {
        taken.add(n.anchor.index!);
        map.set(o.anchor.index!, n.anchor.index!);
      }
    }
    for (const o of olds) {
      if (map.has(o.anchor.index!)) continue;
      const n = news.find((e) => e.anchor.index === o.anchor.index && !taken.has(e.anchor.index!));
      if (n) {
        taken.add(n.anchor.index!);
        map.set(o.anchor.index!, n.anchor.index!);
      }
    }
    listMatches.set(kind, map);
  }

  return (anchor) => {
    const old = locateAnchor(oldElements, anchor);
    const oldText = old?.text ?? '';
    const title = locateAnchor(newElements, { kind: 'title' }) as PlanElement;
    const vanished: Reanchored = { anchor: { kind: 'title' }, status: 'vanished', oldText, newText: '' };
    const landed = (target: PlanAnchor, compare: (a: string, b: string) => boolean): Reanchored => {
      const found = locateAnchor(newElements, target);
      if (!found) return vanished;
      return {
        anchor: target,
        status: compare(oldText, found.text) ? 'same' : 'changed',
        oldText,
        newText: found.text,
      };
    };
    switch (anchor.kind) {
      case 'title':
        return { anchor, status: 'same', oldText, newText: title.text };
      case 'summary':
        return landed(anchor, (a, b) => normalised(a) === normalised(b));
      case 'test':
      case 'assumption': {
        const to = listMatches.get(anchor.kind)?.get(anchor.index ?? 0);
        return to === undefined
          ? vanished
          : landed({ kind: anchor.kind, index: to }, (a, b) => normalised(a) === normalised(b));
      }
      case 'step': {
        const pair = pairs.find((p) => p.before.index === anchor.index);
        if (!pair) return vanished;
        const whole: PlanAnchor = { kind: 'step', index: pair.after.index };
        const sameStep = stepTextWithoutNumber(pair.before) === stepTextWithoutNumber(pair.after);
        if (!anchor.part) {
          const found = locateAnchor(newElements, whole) as PlanElement;
          return { anchor: whole, status: sameStep ? 'same' : 'changed', oldText, newText: found.text };
        }
        const part = landed({ ...whole, part: anchor.part }, (a, b) => normalised(a) === normalised(b));
        if (part.status !== 'vanished') return part;
        const found = locateAnchor(newElements, whole) as PlanElement;
        return { anchor: whole, status: 'changed', oldText, newText: found.text };
      }
    }
  };
}
