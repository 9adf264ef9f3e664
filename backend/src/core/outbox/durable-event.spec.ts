import { DurableEvent, durableName, reviveDurable } from './durable-event.js';

@DurableEvent('spec.something-happened')
class SomethingHappened {
  constructor(
    readonly id: string,
    readonly count: number,
  ) {}

  describe(): string {
    return `${this.id}:${this.count}`;
  }
}

describe('durable events (outbox payloads)', () => {
  it('round-trips through the stored name and JSON fields, methods included', () => {
    const event = new SomethingHappened('a', 2);
    const revived = reviveDurable(durableName(event), JSON.parse(JSON.stringify(event)) as Record<string, unknown>);
    expect(revived).toBeInstanceOf(SomethingHappened);
    expect((revived as SomethingHappened).describe()).toBe('a:2');
  });

  it('never lets a stored payload reach the prototype chain', () => {
    const payload = JSON.parse('{"id":"x","count":1,"__proto__":{"polluted":true},"constructor":{"prototype":{"bad":1}}}') as Record<string, unknown>;
    const revived = reviveDurable('spec.something-happened', payload) as SomethingHappened & { polluted?: boolean };
    expect(Object.getPrototypeOf(revived)).toBe(SomethingHappened.prototype);
    expect(revived.polluted).toBeUndefined();
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(revived.id).toBe('x');
  });

  it('answers null for a name this build does not know, and refuses a class that is not durable', () => {
    expect(reviveDurable('spec.unknown', {})).toBeNull();
    expect(() => durableName(new Date())).toThrow('is not a @DurableEvent');
  });

  it('refuses two classes under one name', () => {
    expect(() => DurableEvent('spec.something-happened')(class Other {})).toThrow('Two durable events are named spec.something-happened');
  });
});
