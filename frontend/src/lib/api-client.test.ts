import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import i18n from '@/i18n/i18n';
import { ApiErrorSchema } from '@life/contracts';
import { ApiError, apiErrorMessage, apiRequest, setUnauthorizedHandler, toApiErrorBody } from './api-client';
import { logout } from './auth';
import { shouldRetry } from './query-client';

function jsonResponse(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function sentHeaders(call = 0): Record<string, string> {
  return (fetchMock.mock.calls[call]?.[1]?.headers ?? {}) as Record<string, string>;
}

describe('apiRequest', () => {
  it('sends the bearer token from localStorage when there is one', async () => {
    localStorage.setItem('authToken', 'abc');
    fetchMock.mockResolvedValue(jsonResponse(200, { ok: true }));
    await apiRequest('/api/x');
    expect(sentHeaders().Authorization).toBe('Bearer abc');
  });

  it('sends no Authorization header when signed out or when auth is off', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(200, {}));
    await apiRequest('/api/x');
    localStorage.setItem('authToken', 'abc');
    await apiRequest('/api/x', { auth: false });
    expect(sentHeaders(0).Authorization).toBeUndefined();
    expect(sentHeaders(1).Authorization).toBeUndefined();
  });

  it('asks for answers in the language on screen (Accept-Language)', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(200, {}));
    await apiRequest('/api/x');
    await i18n.changeLanguage('ja');
    try {
      await apiRequest('/api/x');
    } finally {
      await i18n.changeLanguage('es');
    }
    expect(sentHeaders(0)['Accept-Language']).toBe('es');
    expect(sentHeaders(1)['Accept-Language']).toBe('ja');
  });

  it('validates the answer with the given schema', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { n: 'not a number' }));
    await expect(apiRequest('/api/x', { schema: z.object({ n: z.number() }) })).rejects.toThrow();
  });

  it('validates the answer with a schema it loads once the answer is here', async () => {
    const schema = z.object({ n: z.number() });
    const loader = vi.fn(() => Promise.resolve(schema));
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { n: 1, extra: true }));
    await expect(apiRequest('/api/x', { schema: loader })).resolves.toEqual({ n: 1 });
    expect(loader).toHaveBeenCalledOnce();
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { n: 'not a number' }));
    await expect(apiRequest('/api/x', { schema: loader })).rejects.toThrow();
  });

  it('a schema that cannot be loaded fails the call, once the answer needs it', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { n: 1 }));
    await expect(apiRequest('/api/x', { schema: () => Promise.reject(new Error('chunk failed')) })).rejects.toThrow('chunk failed');
    // An error answer is reported as such, whatever happened to the schema.
    fetchMock.mockResolvedValueOnce(jsonResponse(404, { error: 'not_found', message: 'No existe' }));
    await expect(apiRequest('/api/x', { schema: () => Promise.reject(new Error('chunk failed')) })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('reads error bodies as ApiErrorSchema does', () => {
    const samples: unknown[] = [
      { error: 'validation_failed', message: 'Mal', details: [{ path: 'email', message: 'Email no válido' }], requestId: 'r1' },
      { error: 'not_found', message: 'No existe' },
      { error: 'x', message: 'y', details: [{ path: 'a', message: 'b', extra: 1 }], other: true },
      { error: 'x', message: 'y', details: 'no' },
      { error: 'x', message: 'y', details: [{ path: 1, message: 'b' }] },
      { error: 'x', message: 'y', requestId: 5 },
      { error: 'x' },
      { message: 'y' },
      null,
      'texto',
      [],
    ];
    for (const sample of samples) {
      const parsed = ApiErrorSchema.safeParse(sample);
      expect(toApiErrorBody(sample), JSON.stringify(sample)).toEqual(parsed.success ? parsed.data : null);
    }
  });

  it('turns {error, message} answers into an ApiError', async () => {
    fetchMock.mockResolvedValue(jsonResponse(404, { error: 'not_found', message: 'No existe' }));
    const error = await apiRequest('/api/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', message: 'No existe' });
  });

  it('on 401 clears the session and hands over to the unauthorized handler', async () => {
    const goHome = vi.fn();
    setUnauthorizedHandler(goHome);
    localStorage.setItem('authToken', 'expired');
    localStorage.setItem('user', '{"id":"1","username":"ana","email":"a@b.c","role":"user"}');
    localStorage.setItem('appLanguage', 'FR');
    fetchMock.mockResolvedValue(jsonResponse(401, { error: 'unauthorized', message: 'Token caducado' }));

    await expect(apiRequest('/api/users/me')).rejects.toBeInstanceOf(ApiError);
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(localStorage.getItem('appLanguage')).toBe('FR');
    expect(goHome).toHaveBeenCalledOnce();
  });
});

describe('apiErrorMessage', () => {
  it('prefers the field problems of a validation error over its generic summary', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(400, {
        error: 'validation_failed',
        message: 'The request is not valid.',
        details: [{ path: 'username', message: 'El usuario debe tener al menos 3 caracteres.' }],
      }),
    );
    const error = await apiRequest('/api/x').catch((e: unknown) => e);
    expect(error).toMatchObject({ details: [{ path: 'username', message: 'El usuario debe tener al menos 3 caracteres.' }] });
    expect(apiErrorMessage(error)).toBe('El usuario debe tener al menos 3 caracteres.');
  });

  it("is the server's message otherwise, and nothing for network failures or bodies that are not JSON", async () => {
    expect(apiErrorMessage(new ApiError(409, 'username_taken', 'Ese nombre de usuario ya está en uso.'))).toBe('Ese nombre de usuario ya está en uso.');
    expect(apiErrorMessage(new TypeError('Failed to fetch'))).toBeUndefined();
    fetchMock.mockResolvedValue(new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    expect(apiErrorMessage(await apiRequest('/api/x').catch((e: unknown) => e))).toBeUndefined();
  });
});

describe('shouldRetry', () => {
  it('never retries client errors', () => {
    expect(shouldRetry(0, new ApiError(404, 'not_found', ''))).toBe(false);
    expect(shouldRetry(0, new ApiError(422, 'validation_failed', ''))).toBe(false);
  });

  it('retries server and network errors twice', () => {
    expect(shouldRetry(0, new ApiError(503, 'unavailable', ''))).toBe(true);
    expect(shouldRetry(1, new TypeError('Failed to fetch'))).toBe(true);
    expect(shouldRetry(2, new TypeError('Failed to fetch'))).toBe(false);
  });
});

describe('logout', () => {
  it('posts to /api/auth/logout with the token, clears the session and goes home', async () => {
    localStorage.setItem('authToken', 'abc');
    localStorage.setItem('user', '{}');
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    const goHome = vi.fn();

    await logout(goHome);

    expect(fetchMock).toHaveBeenCalledWith('/api/auth/logout', expect.objectContaining({ method: 'POST' }));
    expect(sentHeaders().Authorization).toBe('Bearer abc');
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(goHome).toHaveBeenCalledOnce();
  });

  it('still signs out locally when the server call fails', async () => {
    const unauthorized = vi.fn();
    setUnauthorizedHandler(unauthorized);
    localStorage.setItem('authToken', 'abc');
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const goHome = vi.fn();

    await logout(goHome);

    expect(localStorage.getItem('authToken')).toBeNull();
    expect(goHome).toHaveBeenCalledOnce();
    expect(unauthorized).not.toHaveBeenCalled();
  });
});
