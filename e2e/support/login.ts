import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { seedSession } from './db.js';

type ProviderName = 'github' | 'google' | 'microsoft' | 'apple';

interface ProviderRow {
  service_name: ProviderName;
  [field: string]: string;
}

/** Points the four login provider rows at the stand-ins, through the real admin API. */
export async function configureProviders(request: APIRequestContext): Promise<string> {
  const { providers } = JSON.parse(process.env.E2E_STANDINS ?? '{}') as { providers: Record<ProviderName, ProviderRow> };
  const admin = await seedSession('admin');
  const headers = { authorization: `Bearer ${admin.token}` };
  const rows = (await (await request.get('/api/login-providers', { headers })).json()) as { id: string; service_name: ProviderName }[];
  for (const row of rows) {
    const body = providers[row.service_name];
    if (!body) continue;
    const response = await request.put(`/api/login-providers/${row.id}`, { headers, data: body });
    expect(response.status()).toBe(200);
  }
  return admin.token;
}

export async function invite(request: APIRequestContext, adminToken: string, email: string): Promise<void> {
  const response = await request.post('/beta-invites', { headers: { authorization: `Bearer ${adminToken}` }, data: { email } });
  expect([201, 409]).toContain(response.status());
}

/** Clicks through the provider's (stand-in) page the way a person would. */
export async function completeAtProvider(page: Page, provider: ProviderName, email: string): Promise<void> {
  if (provider === 'google') {
    await page.locator('input[name="email"]').fill(email);
    await page.getByRole('button', { name: 'Entrar' }).click();
  } else if (provider === 'microsoft') {
    // Microsoft's stand-in: the e-mail decides the account (a personal one unless the run set up a work account).
    await page.getByTestId('standin-email').fill(email);
    await page.getByTestId('standin-authorize').click();
  } else {
    await page.getByTestId('standin-authorize').click();
  }
}
