/** What a surfaced message must never contain: `..`, a repeated "Planwise:", nested parentheses. */
export function styleProblems(message: string): string[] {
  const problems: string[] = [];
  const text = message.replace(/:\/\//g, '');
  // `..` except in a path (`../x`, `a/..`) and in a range written inside code.
  if (/(?<![./])\.\.(?![./])/.test(text)) problems.push('".."');
  if (/[.;,:]\s*[.;,:](?![./\w])|\.\s+\.(?![\w/])/.test(text.replace(/\.\.\//g, '')))
    problems.push('double punctuation');
  if ((message.match(/\bplanwise:/gi) ?? []).length > 1) problems.push('"Planwise:" repeated');
  if (/\bplanwise:?\s+planwise\b/i.test(message)) problems.push('"Planwise" repeated');
  let depth = 0;
  for (const ch of message) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (depth > 1) {
      problems.push('nested parentheses');
      break;
    }
  }
  return problems;
}
