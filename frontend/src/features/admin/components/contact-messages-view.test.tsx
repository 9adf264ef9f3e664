import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ContactMessageDto } from '@life/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RootLayout } from '@/app/root-layout';
import { jsonResponse, stubFetch, type RecordedRequest } from '@/test/fetch-mock';
import { ADMIN_USER, renderWithProviders, signIn } from '@/test/render';
import { ContactMessagesView } from './contact-messages-view';

const base = { user_id: null, attempts: 1, last_error: null, sent_at: null, handled_at: null, handled_by: null };
const MESSAGES: ContactMessageDto[] = [
  {
    ...base,
    id: 'm3',
    name: 'Carla',
    email: 'carla@example.com',
    subject: 'privacy',
    message: 'Borrad mis datos, por favor.',
    status: 'received',
    attempts: 0,
    created_at: '2026-11-22T10:00:00.000Z',
    user_id: 'u1',
  },
  {
    ...base,
    id: 'm2',
    name: 'Bea',
    email: 'bea@example.com',
    subject: 'billing',
    message: 'Factura duplicada.',
    status: 'failed',
    attempts: 8,
    last_error: 'ESOCKET: connect ECONNREFUSED',
    created_at: '2026-11-21T10:00:00.000Z',
  },
  {
    ...base,
    id: 'm1',
    name: 'Alba',
    email: 'alba@example.com',
    subject: 'general',
    message: 'Hola.\nSegunda línea.',
    status: 'sent',
    sent_at: '2026-11-20T10:01:00.000Z',
    created_at: '2026-11-20T10:00:00.000Z',
    handled_at: '2026-11-20T12:00:00.000Z',
    handled_by: 'ana@example.com',
  },
];

beforeEach(() => signIn(ADMIN_USER));
afterEach(() => {
  vi.unstubAllGlobals();
});

function stubApi(onHandled?: (request: RecordedRequest) => Response) {
  let messages = [...MESSAGES];
  return stubFetch((request) => {
    if (request.method === 'POST') {
      const id = request.url.split('/')[3];
      messages = messages.map((m) => (m.id === id ? { ...m, handled_at: '2026-11-22T11:00:00.000Z', handled_by: ADMIN_USER.email } : m));
      return (
        onHandled?.(request) ??
        jsonResponse(
          200,
          messages.find((m) => m.id === id),
        )
      );
    }
    const url = new URL(request.url, 'http://localhost');
    const subject = url.searchParams.get('subject');
    const status = url.searchParams.get('status');
    return jsonResponse(
      200,
      messages.filter((m) => (!subject || m.subject === subject) && (!status || m.status === status)),
    );
  });
}

const cards = () => screen.getAllByTestId('contact-message');
/** The n-th message card (0 = newest). */
function card(index: number): HTMLElement {
  const found = cards()[index];
  if (!found) throw new Error(`No message card ${index}`);
  return found;
}

describe('Contact messages in the admin panel', () => {
  it('opens from a link in the panel header: the menu keeps its five sections', async () => {
    stubApi();
    renderWithProviders(<RootLayout />);
    await userEvent.click(await screen.findByRole('button', { name: 'Abrir panel de administración' }));
    const panel = await screen.findByTestId('admin-panel');
    expect(within(screen.getByTestId('admin-menu')).getAllByRole('listitem')).toHaveLength(5);

    const link = within(panel).getByTestId('admin-header-contactmessages');
    // Two of the three messages have not been handled yet.
    await waitFor(() => expect(link).toHaveTextContent('Mensajes de contacto2'));
    await userEvent.click(link);
    expect(await within(panel).findByRole('heading', { name: 'Mensajes de contacto' })).toBeInTheDocument();
    expect(link).toHaveAttribute('aria-current', 'page');
    expect(within(panel).getByTestId('admin-nav-servicios')).not.toHaveAttribute('aria-current');
    expect(await within(panel).findAllByTestId('contact-message')).toHaveLength(3);

    // Any menu entry leads back to the sections.
    await userEvent.click(within(panel).getByTestId('admin-nav-salud'));
    expect(within(panel).getByRole('heading', { name: 'Salud del Sistema' })).toBeInTheDocument();
    expect(link).not.toHaveAttribute('aria-current');
  });

  it('lists the newest first with sender, subject, text, delivery status and who handled it', async () => {
    const { requests } = stubApi();
    renderWithProviders(<ContactMessagesView />);
    await screen.findAllByTestId('contact-message');
    expect(requests[0]).toMatchObject({ method: 'GET', url: '/api/contact-messages', headers: { Authorization: 'Bearer test-token' } });
    expect(cards().map((card) => within(card).getByTestId('contact-message-from').textContent)).toEqual([
      'Carla <carla@example.com>',
      'Bea <bea@example.com>',
      'Alba <alba@example.com>',
    ]);
    const [carla, bea, alba] = [card(0), card(1), card(2)];
    expect(within(carla).getByTestId('contact-message-subject')).toHaveTextContent('Privacidad y protección de datos');
    expect(within(carla).getByTestId('contact-message-status')).toHaveTextContent('Guardado, sin enviar por email');
    expect(carla).toHaveTextContent('Con sesión iniciada');
    expect(within(bea).getByTestId('contact-message-status')).toHaveTextContent(/^Error al enviar por email\s*· Intentos: 8$/);
    expect(within(bea).getByTestId('contact-message-error')).toHaveTextContent('Último error: ESOCKET: connect ECONNREFUSED');
    expect(within(alba).getByTestId('contact-message-text').textContent).toBe('Hola.\nSegunda línea.');
    expect(within(alba).getByTestId('contact-message-handled')).toHaveTextContent('Atendido por ana@example.com');
    expect(within(alba).queryByTestId('contact-message-mark-handled')).not.toBeInTheDocument();
    expect(within(bea).getByRole('link', { name: 'Responder' })).toHaveAttribute(
      'href',
      `mailto:bea@example.com?subject=${encodeURIComponent('Re: Facturación y pagos')}`,
    );
  });

  it('filters by subject and by delivery status through the API', async () => {
    const { requests } = stubApi();
    renderWithProviders(<ContactMessagesView />);
    await screen.findAllByTestId('contact-message');

    await userEvent.selectOptions(screen.getByTestId('contact-filter-subject'), 'Facturación y pagos');
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(requests.at(-1)?.url).toBe('/api/contact-messages?subject=billing');

    await userEvent.selectOptions(screen.getByTestId('contact-filter-subject'), 'Todos');
    await userEvent.selectOptions(screen.getByTestId('contact-filter-status'), 'Enviados por email');
    await waitFor(() => expect(cards().map((card) => card.getAttribute('data-status'))).toEqual(['sent']));
    expect(requests.at(-1)?.url).toBe('/api/contact-messages?status=sent');

    await userEvent.selectOptions(screen.getByTestId('contact-filter-subject'), 'Consulta general');
    await userEvent.selectOptions(screen.getByTestId('contact-filter-status'), 'Con error de envío');
    expect(await screen.findByTestId('contact-messages-empty')).toHaveTextContent('No hay mensajes con estos filtros.');
  });

  it('marks a message handled and shows who did it', async () => {
    const { requests } = stubApi();
    renderWithProviders(<ContactMessagesView />);
    await screen.findAllByTestId('contact-message');
    await userEvent.click(within(card(0)).getByTestId('contact-message-mark-handled'));
    expect(requests.find((request) => request.method === 'POST')).toMatchObject({ url: '/api/contact-messages/m3/handled' });
    expect(await within(card(0)).findByTestId('contact-message-handled')).toHaveTextContent(`Atendido por ${ADMIN_USER.email}`);
    expect(card(0)).toHaveAttribute('data-handled', 'true');
  });

  it('says so when the list cannot be loaded', async () => {
    stubFetch(() => jsonResponse(403, { error: 'forbidden', message: 'This needs the admin role.' }));
    renderWithProviders(<ContactMessagesView />);
    expect(await screen.findByTestId('contact-messages-error')).toHaveTextContent('Error al obtener los mensajes');
  });
});
