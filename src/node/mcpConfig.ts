/**
 * The MCP servers a workspace names: `.vscode/mcp.json` (VS Code's format: `servers`, JSON with
 * comments) and `.mcp.json` (`mcpServers`). stdio servers (`command`, `args`, `env`, `cwd`) and
 * streamable HTTP servers (`url`, `headers`). `${workspaceFolder}` and `${env:NAME}` are filled
 * in; a server that asks for `${input:…}` is kept, and fails with that said when it is started.
 */
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';

export type McpServerConfig =
  | {
      readonly name: string;
      readonly transport: 'stdio';
      readonly source: string;
      readonly command: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
      readonly cwd?: string;
      /** Why it cannot be started as written (an `${input:…}` Planwise cannot ask for). */
      readonly problem?: string;
    }
  | {
      readonly name: string;
      readonly transport: 'http';
      readonly source: string;
      readonly url: string;
      readonly headers: Readonly<Record<string, string>>;
      readonly problem?: string;
    };

export const MCP_CONFIG_FILES = [
  { file: '.vscode/mcp.json', key: 'servers' },
  { file: '.mcp.json', key: 'mcpServers' },
] as const;

/** JSON with `//` and `/* *\/` comments and trailing commas, as VS Code's settings files allow. */
export function parseJsonc(text: string): unknown {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
    } else {
      out += c;
    }
  }
  return JSON.parse(out.replace(/,(\s*[}\]])/g, '$1'));
}

const asRecord = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

function strings(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(asRecord(v))) if (typeof x === 'string') out[k] = x;
  return out;
}

/**
 * Reads every server both files name (the first file wins a name both use). A file that is missing
 * names none; one that cannot be parsed is an error naming it.
 */
export async function readMcpServers(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<McpServerConfig[]> {
  const out: McpServerConfig[] = [];
  const seen = new Set<string>();
  for (const { file, key } of MCP_CONFIG_FILES) {
    let text: string;
    try {
      text = await readFile(path.join(root, file), 'utf8');
    } catch {
      continue;
    }
    let parsed: unknown;
    try {
      parsed = parseJsonc(text);
    } catch (err) {
      throw new Error(`${file} is not valid JSON (${err instanceof Error ? err.message : String(err)})`);
    }
    for (const [name, raw] of Object.entries(asRecord(asRecord(parsed)[key]))) {
      if (seen.has(name)) continue;
      seen.add(name);
      const server = serverOf(name, file, asRecord(raw), root, env);
      if (server) out.push(server);
    }
  }
  return out;
}

function serverOf(
  name: string,
  source: string,
  raw: Record<string, unknown>,
  root: string,
  env: Readonly<Record<string, string | undefined>>,
): McpServerConfig | undefined {
  const inputs: string[] = [];
  const fill = (s: string) =>
    s
      .replace(/\$\{workspaceFolder\}/g, root)
      .replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, n: string) => env[n] ?? '')
      .replace(/\$\{input:([^}]*)\}/g, (m) => {
        inputs.push(m);
        return '';
      });
  const fillAll = (r: Record<string, string>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, fill(v)]));
  const type = typeof raw['type'] === 'string' ? raw['type'] : undefined;
  const url = typeof raw['url'] === 'string' ? raw['url'] : undefined;
  if (url !== undefined || type === 'http' || type === 'sse') {
    const headers = fillAll(strings(raw['headers']));
    const filledUrl = fill(url ?? '');
    return {
      name,
      transport: 'http',
      source,
      url: filledUrl,
      headers,
      ...problemOf(inputs, filledUrl === '' ? 'it names no url' : undefined),
    };
  }
  const command = typeof raw['command'] === 'string' ? fill(raw['command']) : '';
  const args = Array.isArray(raw['args']) ? raw['args'].filter((a) => typeof a === 'string').map(fill) : [];
  const cwd = typeof raw['cwd'] === 'string' ? path.resolve(root, fill(raw['cwd'])) : undefined;
  return {
    name,
    transport: 'stdio',
    source,
    command,
    args,
    env: fillAll(strings(raw['env'])),
    ...(cwd !== undefined ? { cwd } : {}),
    ...problemOf(inputs, command === '' ? 'it names no command' : undefined),
  };
}

function problemOf(inputs: readonly string[], other: string | undefined): { problem?: string } {
  if (inputs.length > 0) {
    return { problem: `it asks for ${inputs.join(', ')}, which only VS Code's own MCP support can ask you for` };
  }
  return other !== undefined ? { problem: other } : {};
}
