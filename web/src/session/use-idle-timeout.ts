import { useCallback, useEffect, useRef, useState } from 'react';
import { endIdleSession, loadSession, sessionExpiredNotice, type Session } from './session-store';

/** Shared by every tab of the portal, so activity in one tab keeps the others from signing the user out. */
const ACTIVITY_KEY = 'halal.lastActivity';
const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'wheel', 'scroll', 'touchstart'] as const;
const TICK_MS = 1000;
/** How long after a second's edge the countdown looks, so that a timer firing a little early still sees the new second. */
const EDGE_MARGIN_MS = 50;
/** The server refreshes a session's last-seen time at most this often (server/plugins/auth.ts TOUCH_AFTER_MS). */
const SERVER_TOUCH_MS = 15_000;

export interface IdleState {
  /** True while the warning counts down. */
  warning: boolean;
  secondsLeft: number;
  /** "Stay signed in": cancels the countdown and tells the server the user is still here. */
  stayActive: () => void;
}

function storedActivity(): number {
  return Number(localStorage.getItem(ACTIVITY_KEY) ?? 0) || 0;
}

/**
 * Spec 01 section 4: after the idle period (`sessionTime`) a warning counts down `warningCountdown` units
 * (seconds here); then the user is signed out and the session-expired modal appears on the next load.
 * The server ends a session that stays quiet for `sessionTime`, so while the user is active an occasional silent
 * call keeps it alive, and the countdown is placed to end just before the server's own limit (by the keep-alive
 * interval and the server's refresh granularity): "stay signed in" must still find the session alive.
 */
export function useIdleTimeout(session: Session | null): IdleState {
  const enabled = !!session?.authenticated;
  const idleMs = (session?.sessionTime ?? 20) * 60_000;
  const countdown = session?.warningCountdown ?? 5;
  const lastActivity = useRef(Date.now());
  const lastPing = useRef(Date.now());
  const deadline = useRef<number | null>(null);
  const [state, setState] = useState({ warning: false, secondsLeft: countdown });

  const pingEvery = Math.min(60_000, Math.max(5_000, idleMs / 4));
  const warnAfter = Math.max(idleMs / 2, idleMs - countdown * 1000 - pingEvery - SERVER_TOUCH_MS);

  /** Tells the server the user is here; if the session ended meanwhile, says so instead of pretending. */
  const ping = useCallback(() => {
    lastPing.current = Date.now();
    loadSession({ silent: true })
      .then((s) => {
        if (!s.authenticated) sessionExpiredNotice.set({ returnUrl: window.location.pathname + window.location.search });
      })
      .catch(() => undefined);
  }, []);

  const recordActivity = useCallback(() => {
    if (deadline.current !== null) return; // during the warning only the button keeps the session
    const now = Date.now();
    if (now - lastActivity.current < 1000) return;
    lastActivity.current = now;
    localStorage.setItem(ACTIVITY_KEY, String(now));
    if (now - lastPing.current > pingEvery) ping();
  }, [pingEvery, ping]);

  const stayActive = useCallback(() => {
    deadline.current = null;
    lastActivity.current = Date.now();
    localStorage.setItem(ACTIVITY_KEY, String(lastActivity.current));
    setState({ warning: false, secondsLeft: countdown });
    ping();
  }, [countdown, ping]);

  useEffect(() => {
    if (!enabled) return;
    const now = Date.now();
    lastActivity.current = now;
    lastPing.current = now;
    deadline.current = null;
    localStorage.setItem(ACTIVITY_KEY, String(now));
    for (const e of ACTIVITY_EVENTS) window.addEventListener(e, recordActivity, { passive: true });
    let timer = 0;
    /**
     * While the warning counts down, the next look is taken just after the deadline's next whole second, so each
     * second is shown once: looking every second from whenever the warning began samples on the seconds' edges,
     * where a timer a millisecond early or late shows one second twice and skips the next ("3", then "1").
     */
    const schedule = () => {
      const left = deadline.current === null ? TICK_MS : (deadline.current - Date.now()) % TICK_MS;
      timer = window.setTimeout(tick, (left > 0 ? left : TICK_MS) + (deadline.current === null ? 0 : EDGE_MARGIN_MS));
    };
    const tick = () => {
      const t = Date.now();
      const last = Math.max(lastActivity.current, storedActivity());
      if (deadline.current === null) {
        if (t - last >= warnAfter) {
          deadline.current = t + countdown * 1000;
          setState({ warning: true, secondsLeft: countdown });
        }
        return schedule();
      }
      // Another tab saw the user after our warning began: they are still here.
      if (storedActivity() > deadline.current - countdown * 1000) {
        lastActivity.current = storedActivity();
        deadline.current = null;
        setState({ warning: false, secondsLeft: countdown });
        return schedule();
      }
      const left = Math.max(0, Math.ceil((deadline.current - t) / 1000));
      setState({ warning: true, secondsLeft: left });
      if (left === 0) void endIdleSession(window.location.pathname + window.location.search);
      else schedule();
    };
    schedule();
    return () => {
      window.clearTimeout(timer);
      for (const e of ACTIVITY_EVENTS) window.removeEventListener(e, recordActivity);
      deadline.current = null;
      setState({ warning: false, secondsLeft: countdown });
    };
  }, [enabled, warnAfter, countdown, recordActivity]);

  return { ...state, stayActive };
}
