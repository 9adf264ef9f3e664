import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Mail } from 'nodemailer';
import type { ContactSubject } from '@life/contracts';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import type { ContactMessage } from './entities/contact-message.entity.js';

export type ContactMail = Parameters<Mail['sendMail']>[0];

/** How the subjects read in the mail (it goes to the company's own, Spanish-speaking staff). */
export const SUBJECT_LABELS: Record<ContactSubject, string> = {
  general: 'Consulta general',
  privacy: 'Privacidad y protección de datos',
  billing: 'Facturación',
  other: 'Otro',
};

/**
 * The mail for one message: from CONTACT_FROM to CONTACT_TO, Reply-To the visitor, plain
 * text only (what a visitor typed is never rendered as HTML). The Message-ID is derived from
 * the message id, so even a duplicate delivery would be recognised as one message by mail clients.
 */
export function composeContactMail(
  message: ContactMessage,
  config: Pick<AppConfig, 'appUrl'> & { contact: Pick<AppConfig['contact'], 'from' | 'to'> },
): ContactMail {
  const host = new URL(config.appUrl).hostname || 'life.local';
  const label = SUBJECT_LABELS[message.subject];
  const text = [
    `Mensaje recibido desde la página de contacto de Life.`,
    ``,
    `Nombre: ${message.name}`,
    `E-mail: ${message.email}`,
    `Asunto: ${label}`,
    `Cuenta: ${message.user ? message.user.id : 'sin sesión iniciada'}`,
    `Fecha: ${message.createdAt.toISOString()}`,
    `Referencia: ${message.id}`,
    ``,
    `----------------------------------------`,
    message.message,
    `----------------------------------------`,
    ``,
    `Responde a este correo para contestar a ${message.name} (${message.email}).`,
  ].join('\n');
  return {
    from: config.contact.from,
    to: config.contact.to,
    replyTo: { name: message.name, address: message.email },
    subject: `[Contacto] ${label} - ${message.name}`,
    text,
    messageId: `<contact-${message.id}@${host}>`,
    headers: { 'X-Life-Contact-Id': message.id },
  };
}

/** SMTP delivery with nodemailer, configured by SMTP_URL; absent without it. nodemailer is loaded on the first mail. */
@Injectable()
export class ContactMailer implements OnApplicationShutdown {
  private readonly url: string | undefined;
  private transport: Promise<Mail> | undefined;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.url = config.contact.smtpUrl || undefined;
  }

  get configured(): boolean {
    return this.url !== undefined;
  }

  async send(message: ContactMessage): Promise<void> {
    await this.sendMail(composeContactMail(message, this.config));
  }

  /** Any mail of ours (contact messages, reconnect notices) through the same SMTP transport. */
  async sendMail(mail: ContactMail): Promise<void> {
    const url = this.url;
    if (!url) throw new Error('SMTP_URL is not set');
    this.transport ??= import('nodemailer').then(({ createTransport }) =>
      createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }),
    );
    await (await this.transport).sendMail(mail);
  }

  onApplicationShutdown(): void {
    void this.transport?.then(
      (transport) => transport.close(),
      () => undefined,
    );
  }
}
