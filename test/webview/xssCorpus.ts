/**
 * Hostile model outputs. Each one, if it ever ran, would set `window.__pwned`, open a dialog,
 * or request `/pwned` from the test server; the page test watches for all three.
 */
const HIT = "window.__pwned=1;alert(1);fetch('/pwned')";

export const XSS_CORPUS: Record<string, string> = {
  'script tag': `<script>${HIT}</script>`,
  'script tag split across lines': `Here you go:\n\n<scr\nipt>${HIT}</script>\n\n<script\n>${HIT}</script>`,
  'img onerror': `<img src=x onerror="${HIT}">`,
  'markdown image with onerror in the title': `![a](x "\\" onerror=\\"${HIT}")`,
  'svg onload': `<svg onload="${HIT}"><circle r="5"/></svg>`,
  'svg with script inside': `<svg><script>${HIT}</script></svg>`,
  'javascript: markdown link': `[click me](javascript:${encodeURIComponent(HIT)})`,
  'javascript: link with entities': `[click](jav&#x61;script:${HIT})`,
  'javascript: autolink': `<javascript:${HIT}>`,
  'vbscript and data links': `[a](vbscript:msgbox(1)) [b](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)`,
  'data: image': `![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)`,
  'reference-style javascript link': `[hi][evil]\n\n[evil]: javascript:${HIT}`,
  'link text with HTML': `[<img src=x onerror="${HIT}">](https://example.com)`,
  iframe: `<iframe src="javascript:${HIT}"></iframe><iframe srcdoc="<script>${HIT}</script>"></iframe>`,
  'object and embed': `<object data="javascript:${HIT}"></object><embed src="javascript:${HIT}">`,
  'form action': `<form action="javascript:${HIT}"><button>go</button></form>`,
  'style tag and attribute': `<style>body{background:url("javascript:${HIT}")}</style><p style="x:expression(alert(1))">p</p>`,
  'meta refresh': `<meta http-equiv="refresh" content="0;url=javascript:${HIT}">`,
  'base href': `<base href="javascript:${HIT}//">[rel](./x)`,
  'math with xlink': `<math><maction actiontype="statusline" xlink:href="javascript:${HIT}">x</maction></math>`,
  'details ontoggle': `<details open ontoggle="${HIT}"><summary>s</summary></details>`,
  'html inside code span stays text': `\`<img src=x onerror="${HIT}">\``,
  'html inside a fenced block stays text': `\`\`\`html\n<script>${HIT}</script>\n\`\`\``,
  'mutation XSS (noscript)': `<noscript><p title="</noscript><img src=x onerror=${HIT}>">`,
  'link with onmouseover via title quoting': `[x](https://example.com "a\\" onmouseover=\\"${HIT}")`,
  'table cell with HTML': `| a |\n|---|\n| <img src=x onerror="${HIT}"> |`,
  'dom clobbering ids': `<a id="root" name="root">x</a><form name="getElementById"></form>`,
};
