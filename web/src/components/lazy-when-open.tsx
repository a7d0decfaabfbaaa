import { Suspense, lazy, useState, type ComponentType } from 'react';

/**
 * A dialog or drawer whose code loads the first time it opens: the shell's modals and the phone menu are closed on
 * almost every page view, and their machinery (focus trap, dismissal, scroll lock) is a sizeable part of the entry
 * script. Once opened it stays mounted, so closing animates as before.
 */
export function lazyWhenOpen<P extends { open: boolean }>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Loaded = lazy(async () => ({ default: await load() }));
  return function LazyWhenOpen(props: P) {
    const [opened, setOpened] = useState(props.open);
    if (props.open && !opened) setOpened(true);
    return opened ? (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    ) : null;
  };
}
