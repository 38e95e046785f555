/* global window, document, requestAnimationFrame, MessageChannel, MessageEvent */
// What the panel benchmark runs inside the page: the frame instrumentation (an init script) and
// the host's side of the streaming session. Both functions are serialised into the page by
// Playwright, so they may use only their arguments and the page's globals.

/**
 * Init script. Stands in for VS Code's webview API and measures every animation frame:
 * frame work = time from the frame's first rAF callback until the first task after rendering
 * (rAF callbacks, microtasks, style, layout, paint recording, commit), plus the time spent handling
 * host messages since the previous frame. While recording, each frame also leaves a
 * `performance.mark(frameMark)` that cuts the trace into frames.
 */
export function instrumentFrames(frameMark) {
  const bench = { frames: [], intervals: [], messageWork: 0, frameStart: -1, lastTs: -1, recording: false };
  window.__bench = bench;
  window.acquireVsCodeApi = () => ({ postMessage() {}, getState() {}, setState() {} });
  const closeFrame = () => {
    if (bench.frameStart < 0) return;
    const work = performance.now() - bench.frameStart + bench.messageWork;
    if (bench.recording) bench.frames.push(work);
    bench.frameStart = -1;
    bench.messageWork = 0;
  };
  const channel = new MessageChannel();
  channel.port1.onmessage = closeFrame;
  const onFrame = (ts) => {
    closeFrame();
    bench.frameStart = performance.now();
    if (bench.recording) {
      performance.mark(frameMark);
      performance.clearMarks(frameMark);
      if (bench.lastTs >= 0) bench.intervals.push(ts - bench.lastTs);
    }
    bench.lastTs = ts;
    channel.port2.postMessage(0); // runs as the first task after this frame's rendering
    requestAnimationFrame(onFrame);
  };
  requestAnimationFrame(onFrame);
  /** Delivers host messages as VS Code does (one message event each), timing the handling. */
  bench.deliver = (messages) => {
    closeFrame();
    const t0 = performance.now();
    for (const data of messages) window.dispatchEvent(new MessageEvent('message', { data }));
    bench.messageWork += performance.now() - t0;
  };
}

/**
 * Delivers `snapshot` and resolves with the time (ms) until the first frame that shows rows.
 */
export function deliverSnapshot(snapshot) {
  return new Promise((done) => {
    const t0 = performance.now();
    window.__bench.deliver([snapshot]);
    const check = () =>
      document.querySelector('.pw-row') ? done(performance.now() - t0) : requestAnimationFrame(check);
    requestAnimationFrame(check);
  });
}

/**
 * The host streaming `rate` tokens/s, each token its own seq-numbered delta, for a warm-up and
 * then `seconds` of recording. Every 400 tokens the message ends, a tool call and its result
 * arrive, and a new message starts. Resolves with the recorded frames and the DOM's size.
 */
export function streamSession({ seconds, rate, warmupMs, words, firstSeq }) {
  return new Promise((done) => {
    const bench = window.__bench;
    let seq = firstSeq;
    let sent = 0;
    let message = 0;
    let current = '';
    const start = performance.now();
    const newMessage = () => {
      const ops = [];
      if (current) {
        ops.push({ op: 'item.patch', id: current, patch: { streaming: false } });
        ops.push({
          op: 'item.add',
          item: {
            id: `tc${message}`,
            kind: 'tool_call',
            callId: `k${message}`,
            name: 'grep',
            title: 'Searched src/ for `limiter`',
            subject: '`limiter`',
            argsSummary: 'limiter src/',
            verdict: { allowed: true, reason: 'read-only' },
          },
        });
        ops.push({
          op: 'item.add',
          item: {
            id: `tr${message}`,
            kind: 'tool_result',
            callId: `k${message}`,
            ok: true,
            bytes: 812,
            preview: 'src/app.ts:12: app.use(router)',
          },
        });
      }
      message += 1;
      current = `s${message}`;
      ops.push({ op: 'item.add', item: { id: current, kind: 'assistant', text: '', streaming: true } });
      bench.deliver([{ type: 'delta', seq: ++seq, ops }]);
    };
    newMessage();
    const tick = () => {
      const elapsed = performance.now() - start;
      if (!bench.recording && elapsed >= warmupMs) bench.recording = true;
      const due = Math.floor((elapsed / 1000) * rate);
      const batch = [];
      for (; sent < due; sent++) {
        if (sent > 0 && sent % 400 === 0) {
          if (batch.length) bench.deliver(batch.splice(0));
          newMessage();
        }
        const w = words[sent % words.length];
        const text = sent % 40 === 39 ? `${w}.\n\n` : sent % 13 === 0 ? ` \`${w}\`` : ` ${w}`;
        batch.push({ type: 'delta', seq: ++seq, ops: [{ op: 'item.append', id: current, text }] });
      }
      if (batch.length) bench.deliver(batch);
      if (elapsed < warmupMs + seconds * 1000) setTimeout(tick, 4);
      else {
        bench.recording = false;
        done({
          tokens: sent,
          frames: bench.frames,
          intervals: bench.intervals,
          rows: document.querySelectorAll('.pw-row').length,
          domNodes: document.getElementsByTagName('*').length,
        });
      }
    };
    setTimeout(tick, 4);
  });
}
