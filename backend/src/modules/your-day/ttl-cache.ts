/**
 * A small per-process map whose entries live `ttlMs` and of which there are at most `max` (the
 * oldest go first). `get(key, expected)` answers whether the key holds that value.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  constructor(
    private readonly max: number,
    private readonly ttlMs: number,
  ) {}

  get(key: string): V | undefined;
  get(key: string, expected: V): boolean;
  get(key: string, expected?: V): V | undefined | boolean {
    const entry = this.entries.get(key);
    const live = entry && entry.until > Date.now() ? entry.value : undefined;
    if (entry && live === undefined) this.entries.delete(key);
    return arguments.length > 1 ? live !== undefined && live === expected : live;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, until: Date.now() + this.ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
