import { useEffect, useState } from 'preact/hooks';
import { announcement } from './announcer.js';

/** Shows the latest announcement for a few seconds; the live region is always in the page so readers hear it. */
export function Toast() {
  const current = announcement.value;
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    if (!current) return;
    setVisible(true);
    const id = setTimeout(() => setVisible(false), 6000);
    return () => clearTimeout(id);
  }, [current?.id]);
  return (
    <div class="toast-region" role="status" aria-live="polite">
      {current && visible && <div class="toast" key={current.id}>{current.text}</div>}
    </div>
  );
}
