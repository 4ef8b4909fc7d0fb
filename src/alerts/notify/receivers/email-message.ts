import { randomBytes } from 'node:crypto';
import { qEncodeHeader, quotedPrintable } from './mime-encoding.js';

export interface EmailContent {
  /** Rendered headers, in the order written. */
  headers: ReadonlyArray<readonly [string, string]>;
  /** Undefined: no text part. */
  text: string | undefined;
  /** Undefined: no HTML part. */
  html: string | undefined;
  /** Undefined: a header of `headers` names it. */
  messageId: string | undefined;
  date: Date;
}

/** time.RFC1123Z in the local zone: `Mon, 02 Jan 2006 15:04:05 -0700`. */
export function rfc1123z(date: Date): string {
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const two = (n: number): string => String(n).padStart(2, '0');
  const offset = -date.getTimezoneOffset();
  const zone = `${offset < 0 ? '-' : '+'}${two(Math.floor(Math.abs(offset) / 60))}${two(Math.abs(offset) % 60)}`;
  return (
    `${days[date.getDay()]}, ${two(date.getDate())} ${months[date.getMonth()]} ${date.getFullYear()} ` +
    `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())} ${zone}`
  );
}

/**
 * The message as Alertmanager's notify/email writes it: each header Q-encoded, a Message-Id
 * unless configured, Date, then a multipart/alternative body with the text part first and
 * the HTML part last (the preferred alternative, RFC 2046 5.1.4), each quoted-printable.
 */
export function composeEmail(content: EmailContent): string {
  // Go's multipart.Writer boundary: 30 random bytes, hex.
  const boundary = randomBytes(30).toString('hex');
  let message = '';
  for (const [name, value] of content.headers) message += `${name}: ${qEncodeHeader(value)}\r\n`;
  if (content.messageId !== undefined) message += `Message-Id: ${content.messageId}\r\n`;
  message += `Date: ${rfc1123z(content.date)}\r\n`;
  message += `Content-Type: multipart/alternative;  boundary=${boundary}\r\n`;
  message += 'MIME-Version: 1.0\r\n\r\n';
  const parts: Array<[string, string]> = [];
  if (content.text !== undefined) parts.push(['text/plain; charset=UTF-8', content.text]);
  if (content.html !== undefined) parts.push(['text/html; charset=UTF-8', content.html]);
  parts.forEach(([type, body], i) => {
    message += `${i === 0 ? '' : '\r\n'}--${boundary}\r\n`;
    message += `Content-Transfer-Encoding: quoted-printable\r\nContent-Type: ${type}\r\n\r\n`;
    message += quotedPrintable(body);
  });
  message += `\r\n--${boundary}--\r\n`;
  return message;
}
