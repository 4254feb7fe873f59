import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { until } from './wait';

/**
 * A real SMTP server for tests, on a port of its own on loopback: it receives what Setpoint sends
 * over the wire and parses each message (mailparser), so a test reads the subject, the text and
 * the HTML as a mail client would. `refuse` makes it answer every recipient with an SMTP error.
 */
export type TestSmtpServer = {
  url: string;
  inbox: ParsedMail[];
  /** Refuse recipients with this SMTP code (e.g. 550, 451); null accepts again. */
  refuse(code: number | null): void;
  /** Waits until the inbox holds `count` messages. */
  waitFor(count: number, ms?: number): Promise<ParsedMail[]>;
  close(): Promise<void>;
};

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const inbox: ParsedMail[] = [];
  let refusing: number | null = null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (refusing === null) return callback();
      const error = Object.assign(new Error('Refused by the test server'), {
        responseCode: refusing,
      });
      return callback(error);
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          inbox.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    refuse(code) {
      refusing = code;
    },
    async waitFor(count, ms = 20_000) {
      await until(() => inbox.length >= count, ms, `${count} messages (${inbox.length} came)`);
      return inbox;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
