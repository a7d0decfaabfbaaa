import { useEffect, useState } from 'react';

/**
 * Spec 01 section 9: the chat button is hidden after 1 s of scrolling. It hides once the page has been scrolling
 * for `afterMs`, and comes back when scrolling has stopped for `settleMs`.
 */
export function useHideOnScroll(afterMs = 1000, settleMs = 400): boolean {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    let startedAt: number | null = null;
    let settle: ReturnType<typeof setTimeout> | undefined;
    let hide: ReturnType<typeof setTimeout> | undefined;
    const onScroll = () => {
      if (startedAt === null) {
        startedAt = Date.now();
        hide = setTimeout(() => setHidden(true), afterMs);
      }
      clearTimeout(settle);
      settle = setTimeout(() => {
        startedAt = null;
        clearTimeout(hide);
        setHidden(false);
      }, settleMs);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      clearTimeout(settle);
      clearTimeout(hide);
    };
  }, [afterMs, settleMs]);
  return hidden;
}
