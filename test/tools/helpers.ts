/** A ToolContext over a temporary workspace, with real adapters. */
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
