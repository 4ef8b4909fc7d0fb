import t, { type Test } from 'tap';
import { loadAlertmanagerConfig, type TimeInterval } from '../../../src/alerts/config/index.js';

function intervals(specs: string): ReadonlyMap<string, TimeInterval> {
  const r = loadAlertmanagerConfig(`route:\n  receiver: r\nreceivers:\n- name: r\n${specs}`);
  if (!r.ok) throw new Error(r.error);
  return r.value.timeIntervals;
}

function check(t: Test, interval: TimeInterval | undefined, cases: Array<[string, boolean]>): void {
  for (const [at, expected] of cases) t.equal(interval?.contains(new Date(at)), expected, `${interval?.name ?? '?'} at ${at}`);
}

t.test('office hours across a weekday boundary (UTC)', async (t) => {
  const office = intervals(`time_intervals:
- name: office
  time_intervals:
  - weekdays: ['Monday:FRIDAY']
    times: [{start_time: '09:00', end_time: '17:00'}]
`).get('office');
  check(t, office, [
    ['2024-03-01T09:00:00Z', true],
    ['2024-03-01T16:59:59Z', true],
    ['2024-03-01T17:00:00Z', false],
    ['2024-03-01T08:59:00Z', false],
    ['2024-03-02T10:00:00Z', false],
    ['2024-03-04T10:00:00Z', true],
  ]);
});

t.test('a time zone moves the day and the hour', async (t) => {
  const berlin = intervals(`time_intervals:
- name: berlin
  time_intervals:
  - weekdays: [friday]
    times: [{start_time: '09:00', end_time: '17:00'}]
    location: Europe/Berlin
`).get('berlin');
  check(t, berlin, [
    ['2024-03-01T08:30:00Z', true],
    ['2024-03-01T07:30:00Z', false],
    ['2024-03-01T16:30:00Z', false],
    ['2024-07-05T07:30:00Z', true],
  ]);
});

t.test('days of the month across a month boundary, negative days, 24:00', async (t) => {
  const map = intervals(`time_intervals:
- name: first
  time_intervals:
  - days_of_month: ['1:5']
- name: first-ny
  time_intervals:
  - days_of_month: ['1:5']
    location: America/New_York
- name: last
  time_intervals:
  - days_of_month: ['-1']
- name: last-berlin
  time_intervals:
  - days_of_month: ['-1']
    location: Europe/Berlin
- name: late
  time_intervals:
  - times: [{start_time: '22:00', end_time: '24:00'}]
- name: never
  time_intervals:
  - weekdays: []
`);
  check(t, map.get('first'), [
    ['2024-01-31T23:30:00Z', false],
    ['2024-02-01T00:30:00Z', true],
    ['2024-02-05T23:59:00Z', true],
    ['2024-02-06T00:00:00Z', false],
  ]);
  check(t, map.get('first-ny'), [
    ['2024-02-01T03:00:00Z', false],
    ['2024-02-01T06:00:00Z', true],
  ]);
  check(t, map.get('last'), [
    ['2024-02-29T12:00:00Z', true],
    ['2023-02-28T12:00:00Z', true],
    ['2024-02-28T12:00:00Z', false],
  ]);
  // Alertmanager counts a month's days as its hours / 24, truncated: a March that loses an hour
  // to summer time has 30 days in Berlin, so -1 is the 30th there.
  check(t, map.get('last-berlin'), [
    ['2024-03-30T12:00:00Z', true],
    ['2024-03-31T12:00:00Z', false],
    ['2024-10-31T12:00:00Z', true],
  ]);
  check(t, map.get('late'), [
    ['2024-05-05T23:59:00Z', true],
    ['2024-05-05T21:59:00Z', false],
  ]);
  check(t, map.get('never'), [['2024-05-05T12:00:00Z', false]]);
});

t.test('months, years, and several specs', async (t) => {
  const map = intervals(`mute_time_intervals:
- name: holidays
  time_intervals:
  - months: ['december']
    days_of_month: ['24:26']
  - months: ['1']
    days_of_month: ['1']
time_intervals:
- name: twenties
  time_intervals:
  - years: ['2020:2022', '2030']
    months: ['may:august']
`);
  check(t, map.get('holidays'), [
    ['2024-12-25T10:00:00Z', true],
    ['2024-12-27T10:00:00Z', false],
    ['2025-01-01T10:00:00Z', true],
    ['2025-01-02T10:00:00Z', false],
  ]);
  check(t, map.get('twenties'), [
    ['2021-06-01T00:00:00Z', true],
    ['2021-09-01T00:00:00Z', false],
    ['2023-06-01T00:00:00Z', false],
    ['2030-08-31T23:59:00Z', true],
  ]);
});

t.test('validation messages', async (t) => {
  const errorOf = (spec: string): string => {
    const r = loadAlertmanagerConfig(`route:\n  receiver: r\nreceivers:\n- name: r\ntime_intervals:\n- name: x\n  time_intervals:\n  - ${spec}\n`);
    return r.ok ? 'loaded' : r.error;
  };
  t.equal(errorOf("times: [{start_time: '10:00', end_time: '09:00'}]"), 'start time cannot be equal or greater than end time');
  t.equal(errorOf("times: [{start_time: '10:00', end_time: '10:00'}]"), 'start time cannot be equal or greater than end time');
  t.equal(errorOf("times: [{start_time: '10:00'}]"), 'both start and end times must be provided');
  t.equal(errorOf("times: [{start_time: '10:00', end_time: '25:00'}]"), "couldn't parse timestamp 25:00, invalid format");
  t.equal(errorOf('weekdays: [funday]'), 'funday is not a valid weekday');
  t.equal(errorOf("weekdays: ['friday:monday']"), 'start day cannot be before end day');
  t.equal(errorOf('months: [smarch]'), 'smarch is not a valid month');
  t.equal(errorOf("months: ['december:january']"), 'end month january is before start month december');
  t.equal(errorOf("days_of_month: ['-3:5']"), 'end day must be negative if start day is negative');
  t.equal(errorOf("days_of_month: ['0']"), '0 is not a valid day of the month: out of range');
  t.equal(errorOf("days_of_month: ['10:-25']"), 'end day -25 is always before start day 10');
  t.equal(errorOf("days_of_month: ['a']"), 'strconv.Atoi: parsing "a": invalid syntax');
  t.equal(errorOf("years: ['2022:2020']"), 'end year 2020 is before start year 2022');
  t.equal(errorOf("weekdays: ['mon:tue:wed']"), "couldn't parse range mon:tue:wed, invalid format");
  t.equal(errorOf('location: Mars/Olympus'), 'unknown time zone Mars/Olympus');
  t.equal(errorOf('location: europe/berlin'), 'unknown time zone europe/berlin', 'zone names are case-sensitive, as zoneinfo files');
  t.equal(errorOf('location: Local'), 'loaded');
});
