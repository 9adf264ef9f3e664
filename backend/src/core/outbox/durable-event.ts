/**
 * Durable events: work that must not be lost with a process. A class marked `@DurableEvent(name)`
 * is written to the outbox (`OutboxService.stage`) with its own fields as the payload, and
 * rebuilt from that name and payload by the worker that delivers it. Its fields must be plain
 * JSON (strings, numbers, booleans, arrays, objects).
 */
type DurableClass = abstract new (...args: never[]) => object;

const byName = new Map<string, DurableClass>();
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const nameOf = new WeakMap<object, string>();

export function DurableEvent(name: string) {
  return (target: DurableClass): void => {
    const existing = byName.get(name);
    if (existing && existing !== target) throw new Error(`Two durable events are named ${name}`);
    byName.set(name, target);
    nameOf.set(target, name);
  };
}

export function durableName(event: object): string {
  const name = nameOf.get(event.constructor);
  if (!name) throw new Error(`${event.constructor.name} is not a @DurableEvent`);
  return name;
}

/** The event again, from the outbox row; null for a name this build does not know. */
export function reviveDurable(name: string, payload: Record<string, unknown>): object | null {
  const type = byName.get(name);
  if (!type) return null;
  const event = Object.create(type.prototype as object) as Record<string, unknown>;
  // Own fields only: a stored payload never reaches the prototype chain.
  for (const [key, value] of Object.entries(payload)) if (!UNSAFE_KEYS.has(key)) event[key] = value;
  return event;
}
