// The email channel against a real SMTP server (smtp-server) on 127.0.0.1, each message parsed by mailparser:
// subject and bodies arrive, STARTTLS, implicit TLS and AUTH work, a wrong password is permanent, a 4xx is retried.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isPermanent, type ChannelMessage } from '@vigil/plugin-sdk';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';
import { Agent } from 'undici';
import { ChannelsErrors } from '../../../../plugins/channels/errors.js';
import { sendEmail } from '../../../../plugins/channels/senders/email.js';
import type { SendContext } from '../../../../plugins/channels/senders/send-context.js';
import type { Channel } from '../../../../plugins/channels/types.js';
import { freePort } from '../../../support/net.js';

interface Delivered { mail: ParsedMail; session: SMTPServerSession; from: string; to: string[] }

const dispatcher = new Agent();
const context: SendContext = { eventId: 'ev-42', idempotencyKey: '0123456789abcdef0123456789abcdef', timeoutMs: 5000, dispatcher, test: false, env: {} };
const message: ChannelMessage = {
  title: '⚠ CPU at 97% — threshold 90%', text: 'The host is busy.\nSecond line.', severity: 'warning',
  url: 'http://127.0.0.1:9095/alerts', fields: { rule: 'cpu > 90%', value: '97%' },
};

/** A real SMTP server; `reject` answers MAIL FROM with that SMTP code. */
async function startSmtp(options: Partial<SMTPServerOptions> & { reject?: number } = {}): Promise<{ port: number; got: Delivered[]; close(): Promise<void> }> {
  const got: Delivered[] = [];
  const { reject, ...rest } = options;
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    onAuth(auth, _session, callback) {
      if (auth.username === 'alerts' && auth.password === 'right-password') callback(null, { user: auth.username });
      else callback(Object.assign(new Error('Authentication failed'), { responseCode: 535 }));
    },
    onMailFrom(_address, _session, callback) {
      if (reject) callback(Object.assign(new Error(reject >= 500 ? 'Sender refused' : 'Try again later'), { responseCode: reject }));
      else callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream).then((mail) => {
        got.push({ mail, session, from: (session.envelope.mailFrom as { address: string }).address, to: session.envelope.rcptTo.map((r) => r.address) });
        callback();
      }, callback);
    },
    ...rest,
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  return { port, got, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const channel = (port: number, extra: Partial<Channel> = {}): Channel => ({
  id: 'mail', name: 'Mail', type: 'email', enabled: true, source: 'config', host: '127.0.0.1', port, security: 'none',
  from: 'Vigil <alerts@example.com>', to: ['ops@example.com', 'oncall@example.com'], ...extra,
});

const failure = async (p: Promise<void>): Promise<Error & { code?: string }> => {
  try { await p; } catch (err) { return err as Error & { code?: string }; }
  throw new Error('expected the send to fail');
};

test.after(() => dispatcher.close());

test('the subject, the text and HTML bodies, the envelope and a Message-ID from the idempotency key arrive', async () => {
  const smtp = await startSmtp({ disabledCommands: ['STARTTLS', 'AUTH'] });
  try {
    await sendEmail(channel(smtp.port), message, context);
    assert.is(smtp.got.length, 1);
    const [{ mail, from, to }] = smtp.got;
    assert.is(mail.subject, message.title);
    assert.is(from, 'alerts@example.com');
    assert.equal(to, ['ops@example.com', 'oncall@example.com']);
    assert.match(mail.text ?? '', 'The host is busy.\nSecond line.');
    assert.match(mail.text ?? '', 'rule: cpu > 90%');
    assert.match(mail.text ?? '', message.url!);
    assert.match(String(mail.html), '<th align="left" style="padding:2px 12px 2px 0">rule</th><td>cpu &gt; 90%</td>');
    assert.is(mail.messageId, `<${context.idempotencyKey}@vigil.invalid>`);
    assert.is(mail.headers.get('x-vigil-event'), 'ev-42');
  } finally {
    await smtp.close();
  }
});

test('STARTTLS and AUTH: the session is encrypted and logged in; a caller\'s HTML is sent as it is', async () => {
  const smtp = await startSmtp({ authMethods: ['PLAIN', 'LOGIN'] });
  try {
    await sendEmail(channel(smtp.port, { security: 'starttls', user: 'alerts', password: 'right-password', tls_verify: false }), { ...message, html: '<p>custom <b>html</b></p>' }, context);
    const [{ mail, session }] = smtp.got;
    assert.ok(session.secure, 'STARTTLS upgraded the session');
    assert.is(session.user, 'alerts');
    assert.is(String(mail.html).trim(), '<p>custom <b>html</b></p>');
  } finally {
    await smtp.close();
  }
});

test('starttls refuses a server that does not offer it (never sends in clear text)', async () => {
  const smtp = await startSmtp({ disabledCommands: ['STARTTLS'], allowInsecureAuth: true });
  try {
    const err = await failure(sendEmail(channel(smtp.port, { security: 'starttls', tls_verify: false }), message, context));
    assert.ok(isPermanent(err), err.message);
    assert.is(smtp.got.length, 0);
  } finally {
    await smtp.close();
  }
});

test('implicit TLS (security: tls)', async () => {
  const smtp = await startSmtp({ secure: true });
  try {
    await sendEmail(channel(smtp.port, { security: 'tls', user: 'alerts', password: 'right-password', tls_verify: false }), message, context);
    assert.ok(smtp.got[0].session.secure);
  } finally {
    await smtp.close();
  }
});

test('a self-signed certificate is refused while tls_verify holds: permanent, and says what to do', async () => {
  const smtp = await startSmtp({});
  try {
    const err = await failure(sendEmail(channel(smtp.port, { security: 'starttls' }), message, context));
    assert.ok(isPermanent(err), err.message);
    assert.match(err.message, 'certificate');
  } finally {
    await smtp.close();
  }
});

test('a wrong password is a permanent failure (535), and the password is not in the message', async () => {
  const smtp = await startSmtp({});
  try {
    const err = await failure(sendEmail(channel(smtp.port, { security: 'starttls', user: 'alerts', password: 'wrong-password', tls_verify: false }), message, context));
    assert.ok(isPermanent(err));
    assert.is(err.code, ChannelsErrors.REJECTED);
    assert.match(err.message, '535');
    assert.not.match(err.message, 'wrong-password');
    assert.is(smtp.got.length, 0);
  } finally {
    await smtp.close();
  }
});

test('a 4xx reply is retried; a 5xx reply is permanent; a server that is down is retried', async () => {
  const busy = await startSmtp({ disabledCommands: ['STARTTLS', 'AUTH'], reject: 451 });
  const refusing = await startSmtp({ disabledCommands: ['STARTTLS', 'AUTH'], reject: 550 });
  try {
    const later = await failure(sendEmail(channel(busy.port), message, context));
    assert.not.ok(isPermanent(later));
    assert.is(later.code, ChannelsErrors.UNAVAILABLE);
    assert.match(later.message, '451');
    const never = await failure(sendEmail(channel(refusing.port), message, context));
    assert.ok(isPermanent(never));
    assert.match(never.message, '550');
  } finally {
    await busy.close();
    await refusing.close();
  }
  const down = await failure(sendEmail(channel(await freePort()), message, context));
  assert.not.ok(isPermanent(down));
  assert.match(down.message, 'ECONNREFUSED', down.message);
});

test.run();
