import { describe, expect, it } from 'vitest';
import { connectActionFor, filterServices } from './service-rules';

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
