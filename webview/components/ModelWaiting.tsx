/**
 * "Waiting for the model · 34 s" while the model's stream is silent (the engine says since when),
 * with Stop. The seconds count up here; the fact that it is waiting comes from the engine.
 */
import { useEffect, useState } from 'preact/hooks';
import { usePanel } from '../context';

export function ModelWaiting({ since, now = Date.now }: { since: number; now?: () => number }) {
  const { post } = usePanel();
  const [at, setAt] = useState(now);
  useEffect(() => {
    const timer = setInterval(() => setAt(now()), 1000);
    return () => clearInterval(timer);
  }, [since, now]);
  const seconds = Math.max(0, Math.round((at - since) / 1000));
  return (
    <div class="pw-waiting" role="status">
      <span>Waiting for the model · {seconds} s</span>
      <button type="button" class="pw-waiting-stop" onClick={() => post({ type: 'stop' })}>
        Stop
      </button>
    </div>
  );
}
