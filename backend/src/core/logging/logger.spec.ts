import type { FastifyReply, FastifyRequest } from 'fastify';
import { enterRequestScope } from '../http/request-scope.js';
import { createRootLogger, requestLogHook } from './logger.module.js';

/** A pino destination that keeps the parsed lines. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  return { lines, stream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } };
}

const request = (url: string, id = 'req-1') => ({ id, ip: '203.0.113.7', method: 'GET', url, headers: {} }) as unknown as FastifyRequest;
const reply = (statusCode: number) => ({ statusCode, elapsedTime: 3.4 }) as unknown as FastifyReply;

describe('logging (pino, no per-request middleware)', () => {
  it('stamps lines written during a request with its id, and only those', () => {
    const { lines, stream } = capture();
    const logger = createRootLogger({ env: 'test', logLevel: 'info' }, stream);
    logger.info('starting');
    enterRequestScope(request('/api/site', 'abc-123'), undefined as never, () => logger.warn({ body: { password: 'hunter2' } }, 'inside'));
    expect(lines.map((line) => [line.msg, (line.req as { id?: string } | undefined)?.id])).toEqual([
      ['starting', undefined],
      ['inside', 'abc-123'],
    ]);
    // Secrets are still redacted.
    expect((lines[1]!.body as { password: string }).password).toBe('[redacted]');
  });

  it('writes one "request completed" line per answer at the level its status calls for, without the query string', () => {
    const { lines, stream } = capture();
    const hook = requestLogHook(createRootLogger({ env: 'test', logLevel: 'info' }, stream));
    let calls = 0;
    const done = () => void (calls += 1);
    hook(request('/api/users/me?token=secret'), reply(200), done);
    hook(request('/api/users/me', 'r2'), reply(404), done);
    hook(request('/api/x', 'r3'), reply(503), done);
    hook(request('/api/health', 'r4'), reply(200), done);
    // Probes are not logged, a stopping process's 503 readiness included.
    hook(request('/api/health/ready', 'r5'), reply(503), done);
    hook(request('/api/health/live', 'r6'), reply(200), done);
    expect(calls).toBe(6);
    expect(lines.map((line) => [line.level, (line.req as { url: string }).url, (line.res as { statusCode: number }).statusCode, line.msg])).toEqual([
      [30, '/api/users/me', 200, 'request completed'],
      [40, '/api/users/me', 404, 'request completed'],
      [50, '/api/x', 503, 'request completed'],
    ]);
  });

  it('writes nothing below the configured level (the hook checks before building the line)', () => {
    const { lines, stream } = capture();
    const hook = requestLogHook(createRootLogger({ env: 'test', logLevel: 'warn' }, stream));
    hook(request('/api/site'), reply(200), () => undefined);
    hook(request('/api/site'), reply(401), () => undefined);
    expect(lines.map((line) => (line.res as { statusCode: number }).statusCode)).toEqual([401]);
  });
});
