import { DriverException, ConnectionException } from '@mikro-orm/core';
import { WithinTimeoutError } from '../util/within.js';
import { dependencyOutage } from './dependency-outage.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
const named = (name: string, message: string) => Object.assign(new Error(message), { name });

describe('dependencyOutage', () => {
  it('recognises PostgreSQL going away, as MikroORM and node-postgres report it', () => {
    expect(dependencyOutage(new DriverException(new Error('Connection terminated unexpectedly')))).toBe('database');
    expect(dependencyOutage(new DriverException(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')))).toBe('database');
    expect(dependencyOutage(new DriverException(new Error('timeout exceeded when trying to connect')))).toBe('database');
    expect(dependencyOutage(new ConnectionException(new Error('whatever')))).toBe('database');
    expect(dependencyOutage(withCode('terminating connection due to administrator command', '57P01'))).toBe('database');
    expect(dependencyOutage(withCode('the database system is starting up', '57P03'))).toBe('database');
  });

  it('recognises Redis going away, as ioredis reports it', () => {
    expect(dependencyOutage(named('MaxRetriesPerRequestError', 'Reached the max retries per request limit (which is 1).'))).toBe('redis');
    expect(dependencyOutage(new Error('Command timed out'))).toBe('redis');
    expect(dependencyOutage(new Error('Connection is closed.'))).toBe('redis');
  });

  it('recognises a guarded call that timed out, and looks through causes', () => {
    expect(dependencyOutage(new WithinTimeoutError(2000))).toBe('network');
    expect(dependencyOutage(new Error('could not start', { cause: withCode('read ECONNRESET', 'ECONNRESET') }))).toBe('network');
  });

  it('leaves every other error alone (a 500 stays a 500)', () => {
    expect(dependencyOutage(new Error('Cannot read properties of undefined'))).toBeUndefined();
    expect(dependencyOutage(new DriverException(withCode('duplicate key value violates unique constraint', '23505')))).toBeUndefined();
    expect(dependencyOutage(new DriverException(withCode('syntax error at or near "select"', '42601')))).toBeUndefined();
    expect(dependencyOutage('a string')).toBeUndefined();
    expect(dependencyOutage(undefined)).toBeUndefined();
  });
});
