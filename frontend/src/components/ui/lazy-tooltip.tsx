import { cloneElement, useState, useSyncExternalStore, type ComponentProps, type FocusEvent, type PointerEvent, type ReactElement } from 'react';
import type { Tooltip as TooltipComponent } from './tooltip';

type TooltipModule = typeof import('./tooltip');

let loaded: TooltipModule | undefined;
let loading: Promise<TooltipModule> | undefined;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Fetches Radix's tooltip (and its positioning code) once; every LazyTooltip then upgrades. */
export function loadTooltip(): Promise<TooltipModule> {
  loading ??= import('./tooltip').then(
    (module) => {
      loaded = module;
      for (const listener of listeners) listener();
      return module;
    },
    (error: unknown) => {
      // A failed fetch (offline) is tried again on the next hover or focus.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

type TriggerProps = {
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onPointerLeave?: (event: PointerEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  onBlur?: (event: FocusEvent<HTMLElement>) => void;
};

/**
 * `Tooltip` for controls every page shows at once (the header's flag and gear), without Radix's
 * tooltip and floating-ui in the first paint's JavaScript (issue 15). Until they are loaded (when
 * the page is idle, see `preloadHeaderWhenIdle`, or on the first hover or focus) the trigger is
 * rendered alone, with no hint. Wrapping it in the real `Tooltip` creates a new element, so that
 * only happens while the pointer is not on it and it does not have the focus: a press or a
 * keyboard user's focus is never lost to the swap (that hover or focus shows no hint yet).
 */
export function LazyTooltip({ children, ...props }: Omit<ComponentProps<typeof TooltipComponent>, 'children'> & { children: ReactElement<TriggerProps> }) {
  const ready = useSyncExternalStore(
    subscribe,
    () => loaded,
    () => undefined,
  );
  const [module, setModule] = useState(ready);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  // Once upgraded it stays so (a later hover or focus shows the hint).
  if (!module && ready && !hovered && !focused) setModule(ready);

  if (module) return <module.Tooltip {...props}>{children}</module.Tooltip>;

  const own = children.props;
  const load = () => void loadTooltip().catch(() => undefined);
  return cloneElement(children, {
    onPointerEnter: (event: PointerEvent<HTMLElement>) => {
      own.onPointerEnter?.(event);
      setHovered(true);
      load();
    },
    onPointerLeave: (event: PointerEvent<HTMLElement>) => {
      own.onPointerLeave?.(event);
      setHovered(false);
    },
    onFocus: (event: FocusEvent<HTMLElement>) => {
      own.onFocus?.(event);
      setFocused(true);
      load();
    },
    onBlur: (event: FocusEvent<HTMLElement>) => {
      own.onBlur?.(event);
      setFocused(false);
    },
  });
}
