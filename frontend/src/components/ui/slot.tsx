import { cloneElement, isValidElement, type ReactNode, type Ref } from 'react';

type AnyProps = Record<string, unknown>;

function setRef<T>(ref: Ref<T> | undefined, value: T | null): void {
  if (typeof ref === 'function') ref(value);
  else if (ref) ref.current = value;
}

/**
 * Renders its single child with these props merged in, as Radix's `Slot` does for `asChild`
 * (Button's only use): the child's own props win, except that both event handlers run (the
 * child's first), class names are joined, styles merged and both refs set. Radix's is not part
 * of the first paint's JavaScript this way (issue 15).
 */
export function Slot({ children, ...slotProps }: AnyProps & { children?: ReactNode }) {
  if (!isValidElement<AnyProps>(children)) return null;
  const childProps = children.props;
  const merged: AnyProps = { ...slotProps, ...childProps };
  for (const [key, slotValue] of Object.entries(slotProps)) {
    const childValue = childProps[key];
    if (/^on[A-Z]/.test(key) && typeof slotValue === 'function' && typeof childValue === 'function') {
      merged[key] = (...args: unknown[]) => {
        const result: unknown = childValue(...args);
        slotValue(...args);
        return result;
      };
    } else if (key === 'style' && childValue) {
      merged.style = { ...(slotValue as object), ...(childValue as object) };
    } else if (key === 'className') {
      merged.className = [slotValue, childValue].filter(Boolean).join(' ');
    }
  }
  const slotRef = slotProps.ref as Ref<unknown> | undefined;
  const childRef = childProps.ref as Ref<unknown> | undefined;
  if (slotRef && childRef) {
    merged.ref = (node: unknown) => {
      setRef(slotRef, node);
      setRef(childRef, node);
    };
  }
  return cloneElement(children, merged);
}
