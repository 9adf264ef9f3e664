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
  /** While set, the final answer to each message waits until `releaseAnswers()` (a slow mail server). */
  private gate: { opened: Promise<void>; open: () => void } | undefined;
  /** Sessions whose message is complete and waiting for its final answer. */
  private readonly waiting = new Map<string, { hungUp: boolean }>();
  /**
   * Messages whose sender hung up before the final answer: never accepted, so not in `received`
   * (RFC 5321 §6.1: a message is the server's responsibility only once it has answered 250).
   */
  abandoned = 0;

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
      onClose: (session) => {
        const waiting = this.waiting.get(session.id);
        if (waiting && !waiting.hungUp) {
          waiting.hungUp = true;
          this.abandoned += 1;
        }
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        const accept = () => {
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
        };
        // A held message is answered on release, unless its sender hung up meanwhile.
        stream.on('end', () => void this.answerWhenReleased(session.id).then((hungUp) => hungUp || accept()));
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

  /** From now on, a complete message waits for its final answer until `releaseAnswers()`. */
  holdAnswers(): void {
    let open: () => void = () => undefined;
    const opened = new Promise<void>((resolve) => (open = resolve));
    this.gate = { opened, open };
  }

  /** Answers the messages held so far (those whose sender is still connected) and stops holding. */
  releaseAnswers(): void {
    this.gate?.open();
    this.gate = undefined;
  }

  /** Messages complete and waiting for their final answer right now. */
  get held(): number {
    return [...this.waiting.values()].filter((w) => !w.hungUp).length;
  }

  /** Resolves true when the sender hung up while its message was held. */
  private async answerWhenReleased(sessionId: string): Promise<boolean> {
    if (!this.gate) return false;
    const waiting = { hungUp: false };
    this.waiting.set(sessionId, waiting);
    await this.gate.opened;
    this.waiting.delete(sessionId);
    return waiting.hungUp;
  }

  /** Mails whose X-Life-Contact-Id header is `id`. */
  mailsFor(id: string): ReceivedMail[] {
    return this.received.filter((r) => r.mail.headers.get('x-life-contact-id') === id);
  }
}
