import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { reportError } from './report-error';

afterEach(() => vi.restoreAllMocks());

describe('reportError', () => {
  it('keeps a handled API answer out of the error console: one debug line, no stack', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    reportError('Error al guardar cambios', new ApiError(409, 'username_taken', 'Ese nombre de usuario ya está en uso.'));
    expect(error).not.toHaveBeenCalled();
    expect(debug).toHaveBeenCalledExactlyOnceWith('Error al guardar cambios (409 username_taken)');
  });

  it('says nothing about a cancelled request', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    reportError('Error cargando servicios', new DOMException('The operation was aborted.', 'AbortError'));
    expect(error).not.toHaveBeenCalled();
    expect(debug).not.toHaveBeenCalled();
  });

  it('logs an unexpected failure as an error, with the error itself (its stack)', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const bug = new TypeError("Cannot read properties of undefined (reading 'id')");
    reportError('Error cargando servicios', bug);
    expect(error).toHaveBeenCalledExactlyOnceWith('Error cargando servicios', bug);
  });
});
