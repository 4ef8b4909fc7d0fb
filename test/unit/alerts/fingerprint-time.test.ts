/** Alertmanager's alert fingerprints and timestamps, with vectors taken from a real Alertmanager 0.25. */
import t from 'tap';
import { compareCodePoints, fingerprint } from '../../../src/alerts/fingerprint.js';
import { formatTime, parseTime, ZERO_TIME } from '../../../src/alerts/time.js';

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
  t.equal(ms('2025-01-01T00:00:00+0200'), Date.UTC(2024, 11, 31, 22, 0, 0), 'offset without a colon');
  t.equal(ms('2025-01-01T00:00:00'), Date.UTC(2025, 0, 1), 'no zone: UTC');
  t.equal(ms('2025-01-01 10:15:00'), Date.UTC(2025, 0, 1, 10, 15));
  t.equal(ms('2025-01-01T10:15Z'), Date.UTC(2025, 0, 1, 10, 15));
  t.equal(ms('0001-01-01T00:00:00Z'), ZERO_TIME, "Go's zero time is 'not set'");
  t.equal(ms('0001-01-01T00:00:00.000Z'), ZERO_TIME, 'as amtool sends it');
  t.equal(ms(''), 0, 'an empty string is the epoch');
  t.equal(ms('yesterday'), 'parsing time "yesterday" as "2006-01-02 15:04:05": cannot parse "yesterday" as "2006"');
  t.equal(typeof ms('2025-02-30T00:00:00Z'), 'string', 'no February 30th');
  t.equal(formatTime(Date.UTC(2026, 10, 21, 22, 39, 38, 65)), '2026-11-21T22:39:38.065Z');
  t.equal(formatTime(Date.UTC(2026, 10, 21, 22, 39, 38)), '2026-11-21T22:39:38.000Z', 'always three digits');
});
