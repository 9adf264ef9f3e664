import { describe, expect, it } from 'vitest';
import { connectActionFor, connectBlockedBy, filterServices } from './service-rules';

describe('filterServices', () => {
  const services = [{ service_name: 'github' }, { service_name: 'googlecalendar' }, { service_name: 'GoogleDrive' }, { service_name: 'spotify' }];
  const names = (query: string) => filterServices(services, query).map((service) => service.service_name);

  it('keeps every service for an empty or blank query', () => {
    expect(names('')).toHaveLength(4);
    expect(names('   ')).toHaveLength(4);
  });

  it('matches names that contain the query, ignoring case', () => {
    expect(names('GOOGLE')).toEqual(['googlecalendar', 'GoogleDrive']);
    expect(names('drive')).toEqual(['GoogleDrive']);
    expect(names('tif')).toEqual(['spotify']);
    expect(names('narnia')).toEqual([]);
  });
});

describe('connectActionFor', () => {
  it('offers Conectar only when not connected and the type is not login', () => {
    expect(connectActionFor({ service_type: 'música', connected: false, needs_reconnect: false })).toBe('connect');
    expect(connectActionFor({ service_type: 'música', connected: true, needs_reconnect: false })).toBeNull();
    expect(connectActionFor({ service_type: 'login', connected: false, needs_reconnect: false })).toBeNull();
  });

  it('offers Reconectar instead when the connection needs it', () => {
    expect(connectActionFor({ service_type: 'música', connected: false, needs_reconnect: true })).toBe('reconnect');
    expect(connectActionFor({ service_type: 'login', connected: false, needs_reconnect: true })).toBeNull();
  });
});

describe('connectBlockedBy', () => {
  const base = { service_type: 'salud', connected: false, needs_reconnect: false };
  it('gives the reason when Conectar or Reconectar cannot work, and nothing when there is no such button', () => {
    expect(connectBlockedBy({ ...base, unavailable_reason: 'maintenance' })).toBe('maintenance');
    expect(connectBlockedBy({ ...base, needs_reconnect: true, unavailable_reason: 'not_configured' })).toBe('not_configured');
    expect(connectBlockedBy({ ...base, unavailable_reason: null })).toBeNull();
    expect(connectBlockedBy({ ...base, connected: true, unavailable_reason: 'maintenance' })).toBeNull();
    expect(connectBlockedBy({ ...base, service_type: 'login', unavailable_reason: 'maintenance' })).toBeNull();
  });
});
