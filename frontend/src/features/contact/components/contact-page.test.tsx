import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferred, jsonResponse, stubFetch, type RecordedRequest } from '@/test/fetch-mock';
import { REGULAR_USER, renderWithProviders, signIn } from '@/test/render';
import { ContactPage } from './contact-page';

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderContact(
  onPost: (request: RecordedRequest) => Response | Promise<Response> = () => jsonResponse(202, { status: 'received' }),
  props: Parameters<typeof ContactPage>[0] = {},
) {
  const api = stubFetch(onPost);
  renderWithProviders(<ContactPage {...props} />);
  return api;
}

async function fillValidForm({
  name = 'Ana García',
  email = 'ana@example.com',
  subject = 'Privacidad y protección de datos',
  message = 'Quiero saber qué datos guardáis sobre mí.',
} = {}) {
  const nameField = await screen.findByLabelText('Nombre');
  await userEvent.clear(nameField);
  if (name) await userEvent.type(nameField, name);
  const emailField = screen.getByLabelText('Email');
  await userEvent.clear(emailField);
  if (email) await userEvent.type(emailField, email);
  await userEvent.selectOptions(screen.getByLabelText('Asunto'), subject);
  await userEvent.type(screen.getByLabelText('Mensaje'), message);
  await userEvent.click(screen.getByRole('checkbox'));
}

describe('ContactPage', () => {
  it('shows the form with the four subjects and a consent line linking the privacy policy', async () => {
    renderContact();
    expect(await screen.findByRole('heading', { level: 1, name: 'Contacto' })).toBeInTheDocument();
    const options = within(screen.getByLabelText('Asunto'))
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options).toEqual(['Elige un asunto', 'Consulta general', 'Privacidad y protección de datos', 'Facturación y pagos', 'Otro']);
    expect(screen.getByRole('link', { name: 'política de privacidad' })).toHaveAttribute('href', '/privacy-policy');
    expect(screen.getByLabelText('Nombre')).toHaveValue('');
    expect(screen.getByLabelText('Email')).toHaveValue('');
    expect(screen.queryByTestId('contact-prefilled')).not.toBeInTheDocument();
  });

  it('shows a clear error at every missing field, focuses the first one and sends nothing', async () => {
    const { requests } = renderContact();
    await userEvent.click(await screen.findByTestId('contact-submit'));

    expect(screen.getByTestId('contact-error-name')).toHaveTextContent('Escribe tu nombre.');
    expect(screen.getByTestId('contact-error-email')).toHaveTextContent('Escribe tu email para que podamos responderte.');
    expect(screen.getByTestId('contact-error-subject')).toHaveTextContent('Elige un asunto de la lista.');
    expect(screen.getByTestId('contact-error-message')).toHaveTextContent('El mensaje debe tener al menos 10 caracteres.');
    expect(screen.getByTestId('contact-error-consent')).toHaveTextContent('Acepta la política de privacidad para enviar el mensaje.');
    const name = screen.getByLabelText('Nombre');
    expect(name).toHaveFocus();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('Escribe tu nombre.');
    expect(requests).toHaveLength(0);
  });

  it('explains a malformed e-mail and clears the error once it is fixed', async () => {
    renderContact();
    await fillValidForm({ email: 'ana@' });
    await userEvent.click(screen.getByTestId('contact-submit'));
    const email = screen.getByLabelText('Email');
    expect(screen.getByTestId('contact-error-email')).toHaveTextContent('Escribe un email válido, por ejemplo nombre@ejemplo.com.');
    expect(email).toHaveFocus();
    await userEvent.type(email, 'example.com');
    expect(screen.queryByTestId('contact-error-email')).not.toBeInTheDocument();
    expect(email).not.toHaveAttribute('aria-invalid');
  });

  it('prefills name and e-mail for a signed-in person and sends the bearer token along', async () => {
    signIn(REGULAR_USER);
    const { requests } = renderContact();
    expect(await screen.findByLabelText('Nombre')).toHaveValue('bruno');
    expect(screen.getByLabelText('Email')).toHaveValue('bruno@example.com');
    expect(screen.getByTestId('contact-prefilled')).toHaveTextContent('Hemos rellenado tu nombre y tu email con los datos de tu cuenta');

    await userEvent.selectOptions(screen.getByLabelText('Asunto'), 'Facturación y pagos');
    await userEvent.type(screen.getByLabelText('Mensaje'), 'No me llegó la factura de mi edición.');
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(screen.getByTestId('contact-submit'));

    await screen.findByTestId('contact-success');
    expect(requests[0]).toMatchObject({
      method: 'POST',
      url: '/api/contact',
      headers: { Authorization: 'Bearer test-token' },
      body: { name: 'bruno', email: 'bruno@example.com', subject: 'billing', message: 'No me llegó la factura de mi edición.', consent: true },
    });
  });

  it('sends exactly the contract fields, says "Enviando..." meanwhile, then confirms what happens next', async () => {
    const answer = deferred<Response>();
    const { requests } = renderContact(() => answer.promise);
    await fillValidForm({ email: '  Ana@Example.com ' });
    await userEvent.click(screen.getByTestId('contact-submit'));

    const submit = screen.getByTestId('contact-submit');
    expect(submit).toHaveTextContent('Enviando...');
    expect(submit).toBeDisabled();
    expect(requests).toHaveLength(1);
    expect(requests[0]?.body).toEqual({
      name: 'Ana García',
      email: 'ana@example.com',
      subject: 'privacy',
      message: 'Quiero saber qué datos guardáis sobre mí.',
      consent: true,
    });
    expect(requests[0]?.headers).not.toHaveProperty('Authorization');

    answer.resolve(jsonResponse(202, { status: 'received' }));
    const success = await screen.findByTestId('contact-success');
    expect(within(success).getByRole('heading', { name: 'Mensaje enviado' })).toHaveFocus();
    expect(success).toHaveTextContent('Gracias, Ana García. Hemos recibido tu mensaje y te responderemos por email a ana@example.com lo antes posible.');
    // A data-rights request is answered within the legal month.
    expect(success).toHaveTextContent('en el plazo máximo de un mes');
    expect(success).toHaveTextContent('No hace falta que lo envíes otra vez');
    expect(screen.queryByTestId('contact-form')).not.toBeInTheDocument();

    await userEvent.click(screen.getByTestId('contact-send-another'));
    expect(await screen.findByLabelText('Mensaje')).toHaveValue('');
    expect(screen.getByRole('checkbox')).not.toBeChecked();
  });

  it('shows the fields the server refused (400 details) at those fields', async () => {
    renderContact(() =>
      jsonResponse(400, {
        error: 'validation_failed',
        message: 'The request is not valid.',
        details: [{ path: 'body.email', message: 'Introduce un e-mail válido.' }],
      }),
    );
    await fillValidForm({ email: 'ana@example.invalid' });
    await userEvent.click(screen.getByTestId('contact-submit'));
    expect(await screen.findByTestId('contact-error-email')).toHaveTextContent('Escribe un email válido');
    expect(screen.getByTestId('contact-failure')).toHaveTextContent('Revisa los campos marcados.');
    expect(screen.queryByTestId('contact-success')).not.toBeInTheDocument();
  });

  it('says to wait when the server limits the sender (429)', async () => {
    renderContact(() => jsonResponse(429, { error: 'too_many_requests', message: 'Too many requests: try again in 3000 s.' }));
    await fillValidForm();
    await userEvent.click(screen.getByTestId('contact-submit'));
    expect(await screen.findByTestId('contact-failure')).toHaveTextContent('Has enviado varios mensajes en poco tiempo.');
    // The text stays, so nothing typed is lost.
    expect(screen.getByLabelText('Mensaje')).toHaveValue('Quiero saber qué datos guardáis sobre mí.');
  });

  it('keeps the honeypot away from people: hidden from assistive technology and out of the tab order', async () => {
    renderContact();
    const honeypot = await screen.findByTestId('contact-website');
    expect(honeypot).toHaveAttribute('tabindex', '-1');
    expect(honeypot.closest('[aria-hidden="true"]')).not.toBeNull();
    expect(screen.queryByRole('textbox', { name: /no rellenes/i })).not.toBeInTheDocument();
  });

  it('preselects a subject passed by the route (the privacy policy links with subject=privacy)', async () => {
    renderContact(undefined, { initialSubject: 'privacy' });
    await waitFor(() => expect(screen.getByLabelText('Asunto')).toHaveValue('privacy'));
  });
});
