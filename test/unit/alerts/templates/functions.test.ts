import t from 'tap';
import { render } from './support.js';

const STARTS_AT = Date.parse('2026-11-21T22:39:24.161Z');

t.test("Go's builtins", async (t) => {
  t.equal(render('{{ len "héllo" }} {{ len .Alerts }} {{ len .CommonLabels }}'), '6 2 2', 'len counts UTF-8 bytes');
  t.equal(render('{{ index .CommonLabels "severity" }}|{{ index .CommonLabels "none" }}|{{ index "ab" 1 }}'), 'critical||98');
  t.equal(render('{{ slice "abcdef" 1 3 }} {{ slice .Alerts 1 | len }}'), 'bc 1');
  t.equal(render('{{ print 1 2 "x" 3 "y" }}|{{ println 1 "x" }}|'), '1 2x3y|1 x\n|', 'print spaces operands only between non-strings');
  t.equal(render('{{ not "" }} {{ not .Alerts }} {{ and 1 0 }} {{ and 1 2 }} {{ or "" "fallback" }} {{ or 0 "" }}'), 'true false 0 2 fallback ');
  t.equal(render('{{ and 0 .Nope }} {{ or 1 .Nope }}'), '0 1', 'and / or stop at the deciding argument');
  t.equal(render('{{ eq .Status "a" "firing" }} {{ ne 1 2 }} {{ lt "a" "b" }} {{ le 2 2 }} {{ gt 1.5 1.0 }} {{ ge 1 2 }}'), 'true true true true true false');
  t.match(render('{{ lt 1 1.5 }}'), /error calling lt: incompatible types for comparison$/);
  t.match(render('{{ lt true false }}'), /error calling lt: invalid type for comparison$/);
  t.equal(render(`{{ html "<a href='x'>&\\"" }}`), '&lt;a href=&#39;x&#39;&gt;&amp;&#34;');
  t.equal(render(`{{ js "it's \\"<x>\\" = 1" }}`), `it\\'s \\"\\u003Cx\\u003E\\" \\u003D 1`);
  t.equal(render('{{ urlquery "a b&c/é" }}'), 'a+b%26c%2F%C3%A9');
});

t.test('printf verbs as Go formats them', async (t) => {
  t.equal(render('{{ printf "%d|%5s|%-5s|%q|%x|%X|%o|%b|%c|%t|%T|%v|%%" 42 "ab" "ab" "q\\"" 255 "hi" 8 5 65 true .Alerts 2.5 }}'), '42|   ab|ab   |"q\\""|ff|6869|10|101|A|true|template.Alerts|2.5|%');
  t.equal(render('{{ printf "%.2f %e %g %G %05.1f %+d" 3.14159 1234.5678 0.00001234 1e21 3.14159 5 }}'), '3.14 1.234568e+03 1.234e-05 1E+21 003.1 +5');
  t.equal(render('{{ printf "%d" "x" }}|{{ printf "%s" }}|{{ printf "x" 1 }}'), '%!d(string=x)|%!s(MISSING)|x%!(EXTRA int=1)');
  t.equal(render('{{ printf "%v %s" .CommonLabels .GroupLabels.Names }}'), 'map[alertname:HighCPU severity:critical] [alertname]');
});

t.test("Alertmanager's 0.25 functions", async (t) => {
  t.equal(render('{{ toUpper "straße" }} {{ toLower "ÀBC" }}'), 'STRAßE àbc', 'a rune without a one-rune upper case stays');
  t.equal(render('{{ title "hello wORLD foo-bar o\'neil" }}'), "Hello World Foo-Bar O'neil");
  t.equal(render('{{ .GroupLabels.Names | join ", " }} {{ stringSlice "a" "b" | join "-" }}'), 'alertname a-b');
  t.equal(render('{{ match "^High" .GroupLabels.alertname }} {{ match "(?i)^HIGH" .GroupLabels.alertname }} {{ match "^x$" "ab\\nx" }}'), 'true true false');
  t.match(render('{{ match "(" "x" }}'), /error calling match: error parsing regexp: missing closing \): `\(`$/);
  t.equal(render('{{ reReplaceAll "(\\\\w+)-(\\\\d+)" "$2/$1 ${1}x $1x $$" "db-1 web-22" }}'), '1/db dbx  $ 22/web webx  $', 'Go expansion: $1x names group "1x"');
  t.equal(render('{{ reReplaceAll "a*" "-" "baaac" }}'), '-b-c-', 'an empty match right after a match is not replaced');
  t.match(render('{{ reReplaceAll "(" "" "x" }}'), /error calling reReplaceAll: regexp: Compile\(`\(`\): error parsing regexp: missing closing \): `\(`$/);
  t.equal(render('{{ safeHtml "<b>" }}'), '<b>');
});

t.test("Alertmanager's later functions: time, durations, JSON, URLs", async (t) => {
  t.equal(render('{{ (index .Alerts 0).StartsAt | tz "America/New_York" | date "2006-01-02 15:04:05.000 -07:00 MST" }}'), '2026-11-21 17:39:24.161 -05:00 EST');
  t.equal(render('{{ (index .Alerts 0).StartsAt | date "Mon Jan _2 3:04PM .999 Z07:00" }}'), 'Sat Nov 21 10:39PM .161 Z');
  t.match(render('{{ (index .Alerts 0).StartsAt | tz "Nowhere/City" }}'), /error calling tz: unknown time zone Nowhere\/City$/);
  t.equal(render('{{ since (index .Alerts 0).StartsAt }}', { now: () => STARTS_AT + 90_061_500 }), '25h1m1.5s');
  t.equal(render('{{ (index .Alerts 1).EndsAt.Sub (index .Alerts 1).StartsAt }} {{ (index .Alerts 0).StartsAt.Unix }} {{ (index .Alerts 0).EndsAt.IsZero }}'), '30m0s 1795300764 true');
  t.equal(render('{{ humanizeDuration 0 }}|{{ humanizeDuration 1.5 }}|{{ humanizeDuration 60 }}|{{ humanizeDuration 90061 }}|{{ humanizeDuration 0.0015 }}|{{ humanizeDuration "3600" }}|{{ humanizeDuration -61 }}'), '0s|1.5s|1m 0s|1d 1h 1m 1s|1.5ms|1h 0m 0s|-1m 1s');
  t.equal(render('{{ toJson .CommonLabels }}'), '{"alertname":"HighCPU","severity":"critical"}');
  t.equal(
    render('{{ index .Alerts 0 | toJson }}'),
    '{"status":"firing","labels":{"alertname":"HighCPU","instance":"a:9100","severity":"critical"},"annotations":{"summary":"CPU \\u003chigh\\u003e \\u0026 \\"hot\\""},"startsAt":"2026-11-21T22:39:24.161Z","endsAt":"0001-01-01T00:00:00Z","generatorURL":"http://prom/graph?g0.expr=up","fingerprint":"aaaa"}',
  );
  t.equal(render('{{ urlUnescape "a%20b+c" }}'), 'a b c');
  t.match(render('{{ urlUnescape "%zz" }}'), /error calling urlUnescape: invalid URL escape "%zz"$/);
});
