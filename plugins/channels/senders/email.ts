import type { ChannelMessage } from '@vigil/plugin-sdk';
import nodemailer from 'nodemailer';
import { receiverRejected, receiverUnavailable, settingsError } from '../errors.js';
import type { Channel } from '../types.js';
import { clip, fieldList, LIMITS, type Sender } from './send-context.js';

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The plain-text body: the text, the fields a line each, and the link. */
export function emailText(message: ChannelMessage): string {
  const fields = fieldList(message).map((f) => `${f.name}: ${f.value}`);
  return [clip(message.text, LIMITS.text), ...(fields.length ? ['', ...fields] : []), ...(message.url ? ['', message.url] : [])].join('\n');
}

/** The HTML body: the caller's, else the text (escaped), the fields as a table, and the link. */
export function emailHtml(message: ChannelMessage): string {
  if (message.html !== undefined) return message.html;
  const rows = fieldList(message).map((f) => `<tr><th align="left" style="padding:2px 12px 2px 0">${escapeHtml(f.name)}</th><td>${escapeHtml(f.value)}</td></tr>`);
  return [
    `<h2 style="margin:0 0 8px">${escapeHtml(clip(message.title, LIMITS.title))}</h2>`,
    `<p style="white-space:pre-wrap">${escapeHtml(clip(message.text, LIMITS.text))}</p>`,
    ...(rows.length ? [`<table>${rows.join('')}</table>`] : []),
    ...(message.url ? [`<p><a href="${escapeHtml(message.url)}">Open in Vigil</a></p>`] : []),
  ].join('\n');
}

const PORTS = { starttls: 587, tls: 465, none: 25 } as const;

/** Certificate problems are settings to fix (a wrong host name, a self-signed certificate), not outages. */
const CERTIFICATE = /CERT_|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS_CERT_ALTNAME_INVALID|certificate|self[- ]signed/i;

type MailError = Error & { code?: string; responseCode?: number; response?: string };

/**
 * The error a failed send stands for: an SMTP 5xx reply (a refused login is 535) or a refused certificate is
 * permanent; a 4xx reply ("try again later", greylisting), a lost connection or a timeout is retried.
 */
export function classifyMailError(err: unknown, what: string): Error {
  const e = err as MailError;
  const reply = e.response ? `: ${e.response.replace(/\s+/g, ' ').slice(0, 300)}` : '';
  if (typeof e.responseCode === 'number') {
    const text = `${what}: the SMTP server answered ${e.responseCode}${reply}`;
    return e.responseCode >= 500 ? receiverRejected(text) : receiverUnavailable(text);
  }
  const code = e.code ?? '';
  if (code === 'EAUTH') return receiverRejected(`${what}: login refused: ${e.message}`);
  if (CERTIFICATE.test(code) || CERTIFICATE.test(e.message)) return receiverRejected(`${what}: the server's certificate was refused (${e.message}); fix the host name, or set tls_verify: false for a certificate you trust`);
  if (code === 'ETLS') return receiverRejected(`${what}: TLS could not be negotiated (${e.message}); check security and port`);
  if (code === 'EENVELOPE') return receiverRejected(`${what}: the sender or a recipient was refused: ${e.message}`);
  return receiverUnavailable(`${what}: ${code ? `${code} ` : ''}${e.message}`);
}

function transportOptions(channel: Channel, timeoutMs: number) {
  const security = channel.security ?? 'starttls';
  if (!channel.host) throw settingsError(`email channel "${channel.id}": host is not set`);
  return {
    host: channel.host,
    port: channel.port ?? PORTS[security],
    secure: security === 'tls',
    requireTLS: security === 'starttls',
    ignoreTLS: security === 'none',
    ...(channel.user ? { auth: { user: channel.user, pass: channel.password ?? '' } } : {}),
    tls: { rejectUnauthorized: channel.tls_verify !== false },
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    // nodemailer must never log: its debug output would hold the AUTH exchange.
    logger: false,
    debug: false,
  };
}

/**
 * SMTP through nodemailer, one connection per send. The Message-ID is derived from the idempotency key, so a mail
 * sent twice (a crash between the server's 250 and the record of it) is one message to mail clients that dedupe.
 */
export const sendEmail: Sender = async (channel, message, context) => {
  const what = `email channel "${channel.id}"`;
  if (!channel.from || !channel.to?.length) throw settingsError(`${what}: from and to are required`);
  const transport = nodemailer.createTransport(transportOptions(channel, context.timeoutMs));
  try {
    await transport.sendMail({
      from: channel.from,
      to: channel.to,
      subject: clip(message.title, LIMITS.title).replace(/[\r\n]+/g, ' '),
      text: emailText(message),
      html: emailHtml(message),
      messageId: `<${context.idempotencyKey}@vigil.invalid>`,
      headers: { 'X-Vigil-Event': context.eventId, 'X-Vigil-Severity': message.severity },
    });
  } catch (err) {
    throw classifyMailError(err, what);
  } finally {
    transport.close();
  }
};
