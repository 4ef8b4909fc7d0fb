/** Alertmanager's alert fingerprints and timestamps, with vectors taken from a real Alertmanager 0.25. */
import t from 'tap';
import { compareCodePoints, fingerprint } from '../../../src/alerts/fingerprint.js';
import { formatTime, parseTime, parseWithLayouts, ZERO_TIME } from '../../../src/alerts/time.js';

t.test('fingerprints match Alertmanager (FNV-1a 64 over names in byte order)', async (t) => {
  t.equal(fingerprint({ alertname: 'A1', instance: 'i2', severity: 'critical', team: 'b' }), '00100a9b9b9b32b5');
  t.equal(fingerprint({ alertname: 'OK2' }), '1613485f5e0c140a');
  t.equal(fingerprint({ alertname: 'A1', instance: 'i1', severity: 'warning', team: 'a' }), '166dbc0aa1e35f0c');
  t.equal(fingerprint({ alertname: 'R1', instance: 'i9', team: 'a' }), '814715f908b886ee');
  t.equal(fingerprint({ alertname: 'test1' }), '5ae90ff6f82ebe6b');
  t.equal(fingerprint({ alertname: 'test1', severity: 'warning' }), '8f14a41207c8456c');
  t.equal(fingerprint({ a: 'b', b: 'Σ', c: '🙂', d: 'eΘ' }), '0f92a997ae46be5b');
  t.equal(fingerprint({}), 'cbf29ce484222325', 'the empty set');
  t.equal(fingerprint({ severity: 'warning', alertname: 'test1' }), '8f14a41207c8456c', 'order of keys does not matter');
});

t.test('names sort by code point, as Go sorts UTF-8 bytes', async (t) => {
  // U+FF5E (one UTF-16 unit) sorts before U+1F642 (a surrogate pair) by code point, after it by UTF-16 unit.
  t.ok(compareCodePoints('\uff5e', '🙂') < 0);
  t.ok(compareCodePoints('a', 'b') < 0);
  t.equal(compareCodePoints('x', 'x'), 0);
  t.ok(compareCodePoints('ab', 'a') > 0);
});

t.test('timestamps are read as go-openapi reads them and written in UTC with milliseconds', async (t) => {
  const ms = (text: string) => {
    const parsed = parseTime(text);
    return parsed.ok ? parsed.ms : parsed.error;
  };
  t.equal(ms('2026-11-21T22:39:38.065Z'), Date.UTC(2026, 10, 21, 22, 39, 38, 65));
  t.equal(ms('2026-11-21T22:39:38.065123456Z'), Date.UTC(2026, 10, 21, 22, 39, 38, 65), 'nanoseconds cut to milliseconds');
  t.equal(ms('2025-01-01T00:00:00+02:00'), Date.UTC(2024, 11, 31, 22, 0, 0));
  t.equal(ms('2025-01-01T00:00:00.000+0200'), Date.UTC(2024, 11, 31, 22, 0, 0), 'offset without a colon after three fractional digits');
  t.equal(ms('2025-01-01T00:00:00+0200'), 'parsing time "2025-01-01T00:00:00+0200" as "2006-01-02 15:04:05": cannot parse "T00:00:00+0200" as " "', 'and not without them');
  t.equal(ms('2025-01-01T00:00:00'), Date.UTC(2025, 0, 1), 'no zone: UTC');
  t.equal(ms('2025-01-01 10:15:00'), Date.UTC(2025, 0, 1, 10, 15));
  t.equal(ms('2025-01-01T10:15Z'), Date.UTC(2025, 0, 1, 10, 15));
  t.equal(ms('0001-01-01T00:00:00Z'), ZERO_TIME, "Go's zero time is 'not set'");
  t.equal(ms('0001-01-01T00:00:00.000Z'), ZERO_TIME, 'as amtool sends it');
  t.equal(ms(''), 0, 'an empty string is the epoch');
  t.equal(ms('yesterday'), 'parsing time "yesterday" as "2006-01-02 15:04:05": cannot parse "yesterday" as "2006"');
  t.equal(ms('2025-02-30 00:00:00'), 'parsing time "2025-02-30 00:00:00": day out of range', 'no February 30th');
  t.equal(ms('2026-13-01T00:00:00Z'), 'parsing time "2026-13-01T00:00:00Z": month out of range');
  t.equal(ms('2026-11-26 00:00:00Z'), 'parsing time "2026-11-26 00:00:00Z": extra text: "Z"');
  t.equal(ms('2026-11-26'), 'parsing time "2026-11-26" as "2006-01-02 15:04:05": cannot parse "" as "15"');
  t.equal(ms('2026-11-26T00:00:00é'), 'parsing time "2026-11-26T00:00:00\\xc3\\xa9" as "2006-01-02 15:04:05": cannot parse "T00:00:00\\xc3\\xa9" as " "', "Go's quoting: each byte of a non-ASCII character");
  t.equal(ms('2026-11-26T0:00:00,5Z'), Date.UTC(2026, 10, 26, 0, 0, 0, 500), 'one-digit hours, a comma before the fraction');
  t.equal(ms('2026-11-26T00:00:00++1:00'), Date.UTC(2026, 10, 25, 23, 0, 0), "a sign after the sign, as Go's atoi reads it");
  t.same(parseTime('2026-11-26T00:00:00+99:99'), { ok: true, ms: Date.UTC(2026, 10, 26) - (99 * 60 + 99) * 60_000, notDateTime: '2026-11-26T00:00:00.000+100:39' }, 'an offset of 100 hours parses, and is no date-time when written back');
  t.same(parseTime('2026-11-26T00:00:00.250-99:59'), { ok: true, ms: Date.UTC(2026, 10, 26, 0, 0, 0, 250) + (99 * 60 + 59) * 60_000 }, 'one of 99:59 is');
  t.equal(formatTime(Date.UTC(2026, 10, 21, 22, 39, 38, 65)), '2026-11-21T22:39:38.065Z');
  t.equal(formatTime(Date.UTC(2026, 10, 21, 22, 39, 38)), '2026-11-21T22:39:38.000Z', 'always three digits');
});

t.test('the plain RFC 3339 form is read to the value the layouts give, and anything near it keeps their errors', async (t) => {
  const cases = [
    '2026-11-21T22:39:38.065Z', '2026-11-21T22:39:38Z', '2026-11-21T22:39:38.5Z', '2026-11-21T22:39:38.06Z', '2026-11-21T22:39:38.065123Z',
    '2026-11-21T22:39:38.065123456Z', '2026-11-21T22:39:38.0651234567Z', '2026-11-21T22:39:38.Z', '2024-02-29T23:59:59.999+23:59',
    '2023-02-29T00:00:00Z', '2100-02-29T00:00:00Z', '2000-02-29T00:00:00Z', '2026-04-31T00:00:00Z', '2026-00-10T00:00:00Z',
    '2026-11-21T24:00:00Z', '2026-11-21T23:60:00Z', '2026-11-21T23:00:60Z', '2026-11-21T22:39:38-00:00', '2026-11-21T22:39:38+24:00',
    '2026-11-21T22:39:38+01:60', '2026-11-21T22:39:38.123+0100', '2026-11-21T22:39:38z', '2026-11-21t22:39:38Z', '2026-11-21T22:39:38ZZ',
    '0999-12-31T23:59:59Z', '1000-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z', '2026-11-21T22:39:38.065Z ', '2026-1a-21T22:39:38Z',
    '2026-11-21T22:39:38,5Z', '2026-11-21T2:39:38Z', '2026-11-21T22:39:38.000000+05:30', '1969-12-31T23:59:59.999Z',
  ];
  for (const text of cases) t.same(parseTime(text), parseWithLayouts(text), text);
  // Times spread over a leap year, written with several fraction lengths and offsets.
  const differing: string[] = [];
  for (let ms = Date.UTC(2024, 0, 1); ms < Date.UTC(2025, 0, 1); ms += 86_400_000 / 7 + 1_234) {
    const text = new Date(ms).toISOString();
    for (const form of [text, text.replace('.', '.9'), text.replace(/\.\d+/, ''), text.replace('Z', '+05:45'), text.replace('Z', '-11:00')]) {
      if (JSON.stringify(parseTime(form)) !== JSON.stringify(parseWithLayouts(form))) differing.push(form);
    }
  }
  t.same(differing, [], 'no time of the year reads differently');
});
