import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message as the stand-in received it: the SMTP envelope, who authenticated, and the parsed mail. */
export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  user: string | undefined;
  mail: ParsedMail;
}

/** Text that makes the stand-in refuse a message for good (550), like a real server's content filter. */
export const REJECT_MARKER = 'REJECT-THIS-MESSAGE';

/**
 * A real SMTP server (the `smtp-server` library) on loopback, standing in for the company's
 * mail server: it accepts `user`/`pass` over plain SMTP and keeps what it receives. It can be
 * stopped and started again on the same port to play an outage.
 */
export class SmtpStandIn {
  readonly received: ReceivedMail[] = [];
  readonly errors: Error[] = [];
  private server: SMTPServer | undefined;
  port = 0;

  constructor(
    readonly user = 'life-mailer',
    readonly pass = 'smtp-secret-pass',
  ) {}

  get url(): string {
    return `smtp://${this.user}:${this.pass}@127.0.0.1:${this.port}`;
  }

  async start(port = this.port): Promise<void> {
    const server = new SMTPServer({
      logger: false,
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authOptional: false,
      closeTimeout: 500,
      onAuth: (auth, _session, callback) => {
        if (auth.username === this.user && auth.password === this.pass) callback(null, { user: auth.username });
        else callback(new Error('Invalid username or password'));
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks);
          if (raw.includes(REJECT_MARKER)) {
            callback(Object.assign(new Error('Message rejected by content filter'), { responseCode: 550 }));
            return;
          }
          simpleParser(raw).then(
            (mail) => {
              this.received.push({
                envelope: {
                  from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                  to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
                },
                user: typeof session.user === 'string' ? session.user : undefined,
                mail,
              });
              callback();
            },
            (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
          );
        });
      },
    });
    // Without a listener an 'error' event (a client dropping its connection) would throw.
    server.on('error', (error: Error) => this.errors.push(error));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.port = (server.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Mails whose X-Life-Contact-Id header is `id`. */
  mailsFor(id: string): ReceivedMail[] {
    return this.received.filter((r) => r.mail.headers.get('x-life-contact-id') === id);
  }
}
