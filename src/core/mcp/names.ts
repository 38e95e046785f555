/**
 * Tool names as providers accept them: `mcp_<server>_<tool>`, only `[a-zA-Z0-9_-]`, at most 64
 * characters. A name that had to be cut, or that two tools would share, ends in a short hash of
 * the server and tool, so each stays unique and the same from session to session.
 */
export const MAX_TOOL_NAME = 64;

function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

const clean = (s: string) => s.replace(/[^a-zA-Z0-9_-]/g, '_');

/** The model-facing names of `tools` (`[server, tool]` pairs), in the same order. */
export function mcpToolNames(tools: readonly (readonly [string, string])[], taken: ReadonlySet<string>): string[] {
  const used = new Set(taken);
  return tools.map(([server, tool]) => {
    const full = `mcp_${clean(server)}_${clean(tool)}`;
    const tag = `_${hash(`${server}\u0000${tool}`)}`;
    let name = full.length <= MAX_TOOL_NAME ? full : full.slice(0, MAX_TOOL_NAME - tag.length) + tag;
    if (used.has(name)) name = full.slice(0, MAX_TOOL_NAME - tag.length) + tag;
    used.add(name);
    return name;
  });
}

/** Whether `server/tool` is on a list of `server/tool` and `server/*` entries. */
export function listed(list: readonly string[], server: string, tool: string): boolean {
  return list.includes(`${server}/${tool}`) || list.includes(`${server}/*`);
}

/** The servers a list names. */
export function listedServers(list: readonly string[]): Set<string> {
  return new Set(list.map((e) => e.slice(0, e.indexOf('/'))).filter((s) => s !== ''));
}
