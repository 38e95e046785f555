/** A ToolContext over a temporary workspace, with real adapters; a runner that runs nothing. */
import type { CommandRunner, RunOptions, RunResult } from '../../src/core/ports';
import { NodeCommandRunner } from '../../src/node/processRunner';
import { createSearcher } from '../../src/node/ripgrepSearcher';
import { Spool } from '../../src/core/spool';
import type { ToolContext } from '../../src/core/tools/types';
import type { TempWorkspace } from '../support/tempWorkspace';

export function contextFor(ws: TempWorkspace, overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    reader: ws.reader,
    searcher: createSearcher(ws.reader),
    runner: new NodeCommandRunner(),
    trusted: true,
    previewLimitBytes: 8 * 1024,
    spool: new Spool(),
    ...overrides,
  };
}

/** A runner that records what it was asked and runs nothing (exit 0, no output). */
export class RecordingRunner implements CommandRunner {
  readonly calls: { command: string; options: RunOptions }[] = [];
  async run(command: string, options: RunOptions): Promise<RunResult> {
    this.calls.push({ command, options });
    return { exitCode: 0, stdout: '', stderr: '', timedOut: false, truncated: false, durationMs: 1 };
  }
}
