import t from 'tap';
import { render } from './support.js';

const html = (text: string) => render(text, { html: true });

t.test('text: values escaped as html/template does, its own text kept, comments dropped', async (t) => {
  t.equal(html('<p>{{ .CommonAnnotations.summary }}</p>'), '<p>CPU &lt;high&gt; &amp; &#34;hot&#34;</p>');
  t.equal(html("{{ \"a+b'\" }}"), 'a&#43;b&#39;');
  t.equal(html('{{ safeHtml "<b>x</b>" }}'), '<b>x</b>', 'safeHtml output is trusted');
  t.equal(html('a<!-- {{ .Status }} -->b<!DOCTYPE html>'), 'ab<!DOCTYPE html>');
  t.equal(html('{{ "a+b" | html }}'), 'a+b', 'a trailing html replaces the escaper rather than doubling it');
  t.equal(render('<p>{{ .CommonAnnotations.summary }}</p>'), '<p>CPU <high> & "hot"</p>', 'text() does not escape');
});

t.test('attributes: quoted, unquoted, and URL attributes with their parts', async (t) => {
  t.equal(html('<td title="{{ .CommonAnnotations.summary }}">'), '<td title="CPU &lt;high&gt; &amp; &#34;hot&#34;">');
  t.equal(html('<td class={{ "a b" }}>'), '<td class=a&#32;b>');
  t.equal(html('<a href="{{ .ExternalURL }}/x?r={{ .Receiver }}">'), '<a href="http://am:9093/x?r=team%5c.x">');
  t.equal(html('<a href="/x?r={{ .Receiver | urlquery }}">'), '<a href="/x?r=team%5C.x">', 'urlquery stands in for the URL escaper');
  t.equal(html('<a href="{{ "javascript:alert(1)" }}">'), '<a href="#ZgotmplZ">', 'an unsafe scheme is filtered');
  t.equal(html('<a href="{{ "http://x/a b?q=1&r=é" }}">'), '<a href="http://x/a%20b?q=1&amp;r=%c3%a9">');
  t.equal(html('<img src=\'{{ "x\'y" }}\'>'), "<img src='x%27y'>");
  t.equal(html('<title>{{ safeHtml "<b>" }}</title>{{ safeHtml "<b>" }}'), '<title>&lt;b&gt;</title><b>', 'a title is RCDATA: even trusted HTML is escaped');
});

t.test("Alertmanager's email body renders with html/template's escaping", async (t) => {
  const body = html('{{ template "email.default.html" . }}');
  t.notMatch(body, '<!--', 'the license comment is dropped');
  t.match(body, '<title>[FIRING:1] HighCPU (critical)</title>');
  t.match(body, '<a href="http://am:9093/#/alerts?receiver=team%5C.x" class="btn-primary"');
  t.match(body, 'summary = CPU &lt;high&gt; &amp; &#34;hot&#34;<br style=');
  t.match(body, '<a href="http://prom/graph?g0.expr=up" style=');
});
