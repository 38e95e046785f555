/**
 * The walkthrough (`contributes.walkthroughs`): its steps lead from choosing a model to approving a
 * plan, every image it shows exists, and every command, view and context key it names is one
 * Planwise contributes. That the images are packed is tested on the VSIX (test/package/vsix.test.ts).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CONTEXT_KEYS, PANEL_VIEW_ID } from '../../src/host/ids';

interface Step {
  id: string;
  title: string;
  description: string;
  media: { image: string; altText: string };
  completionEvents: string[];
}

interface Manifest {
  contributes: {
    commands: { command: string }[];
    views: Record<string, { id: string }[]>;
    walkthroughs: { id: string; title: string; description: string; steps: Step[] }[];
  };
}

const repo = resolve(__dirname, '../..');
const pkg = JSON.parse(readFileSync(resolve(repo, 'package.json'), 'utf8')) as Manifest;
const commands = new Set(pkg.contributes.commands.map((c) => c.command));
const views = new Set(Object.values(pkg.contributes.views).flatMap((v) => v.map((x) => x.id)));
const contextKeys = new Set<string>(Object.values(CONTEXT_KEYS));
const STATES = ['idle', 'planning', 'awaitingApproval', 'executing'];

describe('the walkthrough', () => {
  const walkthroughs = pkg.contributes.walkthroughs;

  it('is one walkthrough of at least three steps, each with a title, a description and an image with alt text', () => {
    assert.equal(walkthroughs.length, 1);
    const steps = walkthroughs[0]!.steps;
    assert.ok(steps.length >= 3, `${steps.length} steps`);
    assert.equal(new Set(steps.map((s) => s.id)).size, steps.length, 'step ids repeat');
    for (const s of steps) {
      assert.ok(s.title.length > 0 && s.description.length > 0, s.id);
      assert.ok(s.media.altText.length > 0, `${s.id} has no alt text`);
    }
  });

  it('shows images from docs/ that exist and are PNG files', () => {
    for (const s of walkthroughs[0]!.steps) {
      assert.match(s.media.image, /^docs\/[a-z0-9-]+\.png$/, s.id);
      const bytes = readFileSync(resolve(repo, s.media.image));
      assert.equal(bytes.subarray(1, 4).toString(), 'PNG', s.media.image);
    }
  });

  it('goes from choosing a model, to starting to plan, to approving the plan', () => {
    const [choose, start, approve] = walkthroughs[0]!.steps;
    assert.match(choose!.description, /\(command:planwise\.openSetup\)/);
    assert.ok(choose!.completionEvents.includes('onCommand:planwise.openSetup'));
    assert.match(start!.description, /\(command:planwise\.startPlanning\)/);
    assert.ok(start!.completionEvents.includes('onCommand:planwise.startPlanning'));
    assert.ok(approve!.completionEvents.includes('onCommand:planwise.approvePlan'));
    assert.ok(approve!.completionEvents.includes('onContext:planwise.state == executing'));
  });

  it('names only commands, views and context keys Planwise contributes', () => {
    for (const s of walkthroughs[0]!.steps) {
      assert.ok(s.completionEvents.length > 0, `${s.id} never completes`);
      for (const link of s.description.matchAll(/\(command:([\w.]+)\)/g)) {
        assert.ok(commands.has(link[1]!), `${s.id} links to ${link[1]}, which is not contributed`);
      }
      for (const event of s.completionEvents) {
        const [kind, ...rest] = event.split(':');
        const arg = rest.join(':');
        if (kind === 'onCommand') assert.ok(commands.has(arg), `${s.id}: ${event}`);
        else if (kind === 'onView') assert.ok(views.has(arg) && arg === PANEL_VIEW_ID, `${s.id}: ${event}`);
        else if (kind === 'onContext') {
          const m = /^([\w.]+) == (\w+)$/.exec(arg);
          assert.ok(m && contextKeys.has(m[1]!) && STATES.includes(m[2]!), `${s.id}: ${event}`);
        } else assert.fail(`${s.id}: ${event} is not an event this test knows`);
      }
    }
  });
});
