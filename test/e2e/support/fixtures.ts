/**
 * The workspace the scenarios plan in and what the scripted model says about it: a greeting helper
 * (`greet.js`) that says "Hi", a check (`check.js`) that passes only once it says "Hello, <name>!",
 * and plans whose verify command is that check.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { planResponse, samplePlan } from '../../support/sessionHarness';
import { sse, type ScriptedTurn } from '../../support/scriptedServer';

export const GREET_BEFORE = "exports.greet = (name) => 'Hi ' + name;\n";
export const GREET_AFTER = "exports.greet = (name) => 'Hello, ' + name + '!';\n";
export const CHECK_JS =
  "const { greet } = require('./greet');\nprocess.exit(greet('Ada') === 'Hello, Ada!' ? 0 : 1);\n";
export const VERIFY = 'node check.js';
/** Words only the README holds: research output that must not follow a fresh-context handover. */
export const README_MARKER = 'quokka-lantern-research';

export interface Workspace {
  readonly root: string;
  /** Absolute path of a workspace file. */
  file(relative: string): string;
  cleanup(): void;
}

export function makeWorkspace(prefix = 'planwise-e2e-ws-'): Workspace {
  const root = mkdtempSync(path.join(os.tmpdir(), prefix));
  const files: Record<string, string> = {
    'README.md': `# Greeter\n\nA tiny greeting helper (${README_MARKER}).\n`,
    'greet.js': GREET_BEFORE,
    'check.js': CHECK_JS,
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), content);
  }
  return {
    root,
    file: (relative) => path.join(root, relative),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** A plan that validates, with one step whose verify is `node check.js`. */
export function greetingPlan(title = 'Greet with Hello'): string {
  return samplePlan(title, 'greet.js', VERIFY);
}

/** The model's answer holding `plan`, streamed in small pieces. */
export function planTurn(plan: string, intro = 'Here is the plan.'): ScriptedTurn {
  return sse.textTurn(planResponse(plan, intro), { usage: [400, 120] });
}

/** Text that streams slowly enough for the panel to be seen mid-stream, then a tool call. */
export function slowTextThenTool(text: string, tool: { name: string; args: Record<string, unknown> }): ScriptedTurn {
  return {
    ...sse.toolTurn([tool], { text }),
    delayMs: 250,
  };
}

export const INTERVIEW = {
  questions: [
    {
      header: 'Greeting',
      question: 'Which greeting should callers get?',
      options: [
        { label: 'Hi', description: 'Keep the short one' },
        { label: 'Hello', description: 'The friendlier one', recommended: true },
      ],
    },
    {
      header: 'Punctuation',
      question: 'End the greeting with an exclamation mark?',
      options: [{ label: 'Yes', recommended: true }, { label: 'No' }],
    },
  ],
};
