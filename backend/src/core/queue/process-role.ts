/** What a process does: serve HTTP, consume queues, or both (the `npm start` default). */
export type ProcessRole = 'web' | 'worker' | 'all';

export const PROCESS_ROLE = Symbol('PROCESS_ROLE');

export const runsWorkers = (role: ProcessRole) => role === 'worker' || role === 'all';
