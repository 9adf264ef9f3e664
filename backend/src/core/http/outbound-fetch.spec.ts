import { fetchCheckingRedirects } from './outbound-fetch.js';

/** One request each, as undici with `redirect: 'manual'` answers it; records what was asked. */
function scripted(answers: Response[]) {
  const asked: { url: string; method: string; authorization: string | null; body: unknown }[] = [];
  const fetchOnce = async (url: URL, init: RequestInit) => {
    asked.push({ url: url.href, method: init.method ?? 'GET', authorization: new Headers(init.headers).get('authorization'), body: init.body });
    return answers.shift()!;
  };
  return { asked, fetchOnce };
}
const redirect = (status: number, location: string) => new Response(null, { status, headers: { location } });

describe('outbound calls follow redirects only to public hosts (decision 0050)', () => {
  it('refuses a redirect to a private or metadata address before connecting to it', async () => {
    for (const target of ['http://169.254.169.254/latest/meta-data/', 'http://127.0.0.1:6379/', 'http://[::1]/', 'http://10.0.0.5/']) {
      const { asked, fetchOnce } = scripted([redirect(307, target)]);
      const failure = await fetchCheckingRedirects(fetchOnce, 'https://provider.example/token', { method: 'POST', body: 'client_secret=s' }).catch(
        (e: unknown) => e,
      );
      expect(failure).toBeInstanceOf(TypeError);
      expect(((failure as TypeError).cause as Error).message).toMatch(/private or loopback/);
      expect(asked.map((a) => a.url)).toEqual(['https://provider.example/token']);
    }
  });

  it('follows public redirects as fetch does: 307 keeps the POST, 303 turns to GET, credentials stay on their origin', async () => {
    const { asked, fetchOnce } = scripted([
      redirect(307, 'https://provider.example/v2/token'),
      redirect(303, 'https://other.example/done'),
      new Response('ok', { status: 200 }),
    ]);
    const response = await fetchCheckingRedirects(fetchOnce, 'https://provider.example/token', {
      method: 'POST',
      body: 'x=1',
      headers: { authorization: 'Basic abc' },
    });
    expect(await response.text()).toBe('ok');
    expect(asked).toEqual([
      { url: 'https://provider.example/token', method: 'POST', authorization: 'Basic abc', body: 'x=1' },
      { url: 'https://provider.example/v2/token', method: 'POST', authorization: 'Basic abc', body: 'x=1' },
      { url: 'https://other.example/done', method: 'GET', authorization: null, body: undefined },
    ]);
  });

  it('stops after five redirects, and hands a redirect back untouched when asked not to follow', async () => {
    const loop = scripted(Array.from({ length: 7 }, (_, i) => redirect(302, `https://provider.example/${i}`)));
    await expect(fetchCheckingRedirects(loop.fetchOnce, 'https://provider.example/', {})).rejects.toThrow(TypeError);
    expect(loop.asked).toHaveLength(6);
    const manual = scripted([redirect(302, 'http://127.0.0.1/')]);
    const answer = await fetchCheckingRedirects(manual.fetchOnce, 'https://provider.example/', { redirect: 'manual' });
    expect(answer.status).toBe(302);
  });
});
