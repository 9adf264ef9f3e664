import type { Adapter, AdapterPayload } from 'oidc-provider';

interface Stored {
  payload: AdapterPayload;
  /** Epoch ms; Infinity when oidc-provider gave no lifetime. */
  expiresAt: number;
}

/**
 * Where the development identity provider keeps its sessions, interactions, grants, codes and
 * tokens: this process's memory, on purpose (it exists only in development; a restart signs the
 * developer out of it, never out of Life). Given to oidc-provider as its `adapter`, so the library
 * does not print its "development-only in-memory adapter is used" warning at the first sign-in:
 * that warning is for real deployments of oidc-provider, which this is not.
 */
export function memoryAdapterFactory(): (model: string) => Adapter {
  const store = new Map<string, Stored>();
  const byUid = new Map<string, string>();
  const byUserCode = new Map<string, string>();
  const byGrant = new Map<string, Set<string>>();

  const live = (key: string): AdapterPayload | undefined => {
    const stored = store.get(key);
    if (!stored) return undefined;
    if (stored.expiresAt <= Date.now()) {
      store.delete(key);
      return undefined;
    }
    return stored.payload;
  };

  return (model: string): Adapter => {
    const keyOf = (id: string) => `${model}:${id}`;
    return {
      async upsert(id, payload, expiresIn) {
        const key = keyOf(id);
        store.set(key, { payload, expiresAt: typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : Infinity });
        if (payload.uid) byUid.set(payload.uid, id);
        if (payload.userCode) byUserCode.set(payload.userCode, id);
        if (payload.grantId) byGrant.set(payload.grantId, (byGrant.get(payload.grantId) ?? new Set()).add(key));
      },
      async find(id) {
        return live(keyOf(id));
      },
      async findByUid(uid) {
        const id = byUid.get(uid);
        return id === undefined ? undefined : live(keyOf(id));
      },
      async findByUserCode(userCode) {
        const id = byUserCode.get(userCode);
        return id === undefined ? undefined : live(keyOf(id));
      },
      async consume(id) {
        const payload = live(keyOf(id));
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      },
      async destroy(id) {
        store.delete(keyOf(id));
      },
      async revokeByGrantId(grantId) {
        for (const key of byGrant.get(grantId) ?? []) store.delete(key);
        byGrant.delete(grantId);
      },
    };
  };
}
