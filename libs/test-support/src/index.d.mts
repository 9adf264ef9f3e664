/** A TCP port nobody listens on right now on 127.0.0.1 (for servers whose URL must be known before they start). */
export declare function freePort(): Promise<number>;

export interface PollOptions {
  /** How long to keep trying (default 20 s). */
  timeoutMs?: number;
  /** The pause between two tries (default 100 ms). */
  intervalMs?: number;
  /** Asked before every try: a message stops the wait at once with that error (e.g. the process waited on exited). */
  failIf?: () => string | false | null | undefined;
  /** Added to the timeout's message (e.g. a child process's output, the last answer seen). */
  detail?: () => string;
}

/**
 * Polls `probe` until it gives a truthy value, and returns that value: never a fixed sleep.
 * A probe that throws counts as "not yet"; after `timeoutMs` it fails naming `what`.
 */
export declare function pollUntil<T>(
  probe: () => T | PromiseLike<T>,
  what: string,
  options?: PollOptions,
): Promise<Exclude<T, false | null | undefined | 0 | ''>>;
