import { createHash } from 'node:crypto';
import t from 'tap';
import type { HttpConfig } from '../../../../src/alerts/config/index.js';
import { createHttpSender } from '../../../../src/alerts/notify/http-client.js';
import { otherIntegrations, unsupportedIntegrations } from '../../../../src/alerts/notify/receivers/index.js';
import { PagerdutyIntegration } from '../../../../src/alerts/notify/receivers/pagerduty.js';
import { startHttpSink } from '../../../support/notification-sinks.js';
import { literalTemplates, receiverFrom, requestFor } from '../../../support/receiver-fixtures.js';
import { loadAlertmanagerConfig } from '../../../../src/alerts/config/index.js';

const tools = { templates: literalTemplates, sender: (httpConfig: HttpConfig) => createHttpSender(httpConfig, process.cwd()) };

/** The one integration of a receiver with these integration lists. */
function only(integrations: string) {
  const [integration] = otherIntegrations(receiverFrom('', integrations), tools);
  if (integration === undefined) throw new Error('no integration');
  return integration;
}

const LITERAL_SLACK = 'title: T\n    title_link: http://t\n    pretext: P\n    text: X\n    fallback: F\n    callback_id: C\n    footer: Foot\n    username: bot\n    icon_emoji: ":fire:"\n    icon_url: ""\n    color: danger';

t.test('slack: one attachment as Alertmanager builds it, POSTed as JSON with the bearer token of http_config', async (t) => {
  const sink = await startHttpSink(t);
  const slack = only(
    `  slack_configs:\n  - api_url: ${sink.url}/hook\n    channel: "#ops"\n    ${LITERAL_SLACK}\n    link_names: true\n    short_fields: true\n    image_url: http://i\n` +
      `    http_config: {authorization: {credentials: s3cret}}\n    fields: [{title: a, value: b}, {title: c, value: d, short: false}]\n` +
      `    actions: [{type: button, text: Runbook, url: "http://run/book"}, {type: button, text: Ack, name: ack, value: "1", confirm: {text: sure?}}]\n`,
  );
  t.same(await slack.notify(requestFor(['host-1'])), { ok: true });
  const request = await sink.nth(1);
  t.equal(request.path, '/hook');
  t.equal(request.headers['content-type'], 'application/json');
  t.equal(request.headers.authorization, 'Bearer s3cret');
  t.match(request.headers['user-agent'], /^Alertmanager\//);
  t.ok(request.body.endsWith('}\n'), "Go's encoder ends the body with a newline");
  t.same(request.json, {
    channel: '#ops',
    username: 'bot',
    icon_emoji: ':fire:',
    link_names: true,
    attachments: [
      {
        title: 'T',
        title_link: 'http://t',
        pretext: 'P',
        text: 'X',
        fallback: 'F',
        callback_id: 'C',
        fields: [
          { title: 'a', value: 'b', short: true },
          { title: 'c', value: 'd', short: false },
        ],
        actions: [
          { type: 'button', text: 'Runbook', url: 'http://run/book' },
          { type: 'button', text: 'Ack', name: 'ack', value: '1', confirm: { text: 'sure?' } },
        ],
        image_url: 'http://i',
        footer: 'Foot',
        color: 'danger',
        mrkdwn_in: ['fallback', 'pretext', 'text'],
      },
    ],
  });
});

t.test("slack: answers become results, Slack's own `ok: false` included", async (t) => {
  const sink = await startHttpSink(t);
  const slack = only(`  slack_configs:\n  - api_url: ${sink.url}/hook\n    channel: "#ops"\n    ${LITERAL_SLACK}\n`);
  sink.answerWith((n) => [500, 404, { status: 200, body: '{"ok":false,"error":"channel_not_found"}', contentType: 'application/json' }][n - 1] ?? 200);
  t.same(await slack.notify(requestFor(['h'])), { ok: false, retry: true, reason: 'serverError', error: 'channel "#ops": unexpected status code 500: sink answered 500' });
  t.same(await slack.notify(requestFor(['h'])), { ok: false, retry: false, reason: 'clientError', error: 'channel "#ops": unexpected status code 404: sink answered 404' });
  t.same(await slack.notify(requestFor(['h'])), { ok: false, retry: false, reason: 'clientError', error: 'channel "#ops": error response from Slack: channel_not_found' });
  t.same(await slack.notify(requestFor(['h'])), { ok: true });
  const defaults = only(`  slack_configs:\n  - api_url: ${sink.url}/hook\n`);
  t.match(await defaults.notify(requestFor(['h'])), { ok: false, retry: false, error: /literal templates only/ }, 'a template that fails is not retried');
  t.equal(sink.requests.length, 4, 'and nothing is sent for it');
});

const LITERAL_PD = 'client: Alertmanager\n    client_url: http://am\n    description: Disk is full\n    details: {firing: F, resolved: R, num_firing: "1", num_resolved: "0"}';

t.test('pagerduty: an Events API v2 event, triggered then resolved, deduplicated by the hash of the group key', async (t) => {
  const sink = await startHttpSink(t);
  const pd = only(
    `  pagerduty_configs:\n  - routing_key: rk-1\n    url: ${sink.url}/v2/enqueue\n    ${LITERAL_PD}\n    severity: critical\n    class: disk\n` +
      `    images: [{src: "http://i/x.png", alt: graph}, {alt: no-src}]\n    links: [{href: "http://runbook", text: runbook}, {text: no-href}]\n`,
  );
  const groupKey = '{}:{alertname="Disk"}';
  t.same(await pd.notify(requestFor(['host-1'], { groupKey })), { ok: true });
  t.same(await pd.notify(requestFor(['host-1'], { groupKey, resolved: ['host-1'] })), { ok: true });
  const dedupKey = createHash('sha256').update(groupKey).digest('hex');
  const event = (action: string) => ({
    routing_key: 'rk-1',
    dedup_key: dedupKey,
    event_action: action,
    payload: { summary: 'Disk is full', source: 'Alertmanager', severity: 'critical', class: 'disk', custom_details: { firing: 'F', num_firing: '1', num_resolved: '0', resolved: 'R' } },
    client: 'Alertmanager',
    client_url: 'http://am',
    images: [{ src: 'http://i/x.png', alt: 'graph', href: '' }],
    links: [{ href: 'http://runbook', text: 'runbook' }],
  });
  t.same((await sink.nth(1)).json, event('trigger'));
  t.same((await sink.nth(2)).json, event('resolve'));
  t.equal((await sink.nth(1)).path, '/v2/enqueue');
});

t.test('pagerduty: v1 events, rate limits retried, 400 details in the error, an oversized event sent without details', async (t) => {
  const sink = await startHttpSink(t);
  const [config] = receiverFrom('', `  pagerduty_configs:\n  - service_key: sk-1\n    ${LITERAL_PD}\n`).pagerdutyConfigs;
  if (config === undefined) throw new Error('no config');
  const v1 = new PagerdutyIntegration(0, config, literalTemplates, tools.sender(config.httpConfig), process.cwd(), `${sink.url}/v1`);
  t.same(await v1.notify(requestFor(['host-1'])), { ok: true });
  t.same((await sink.nth(1)).json, {
    service_key: 'sk-1',
    incident_key: createHash('sha256').update('{}:{alertname="Disk"}').digest('hex'),
    event_type: 'trigger',
    description: 'Disk is full',
    event_action: '',
    payload: null,
    client: 'Alertmanager',
    client_url: 'http://am',
    details: { firing: 'F', num_firing: '1', num_resolved: '0', resolved: 'R' },
  });
  sink.answerWith(() => 403);
  t.match(await v1.notify(requestFor(['host-1'])), { ok: false, retry: true, reason: 'clientError', error: 'unexpected status code 403' }, 'v1 rate limiting (403) is retried');

  const v2 = only(`  pagerduty_configs:\n  - routing_key: rk\n    url: ${sink.url}/v2\n    ${LITERAL_PD}\n`);
  sink.answerWith(() => 429);
  t.match(await v2.notify(requestFor(['h'])), { ok: false, retry: true, reason: 'clientError', error: 'unexpected status code 429' }, 'v2 rate limiting (429) is retried');
  sink.answerWith(() => ({ status: 400, body: '{"status":"invalid event","message":"Event object is invalid","errors":["Length of \'routing_key\' is incorrect"]}' }));
  t.same(await v2.notify(requestFor(['h'])), { ok: false, retry: false, reason: 'clientError', error: "unexpected status code 400: Event object is invalid: Length of 'routing_key' is incorrect" });

  sink.answerWith(() => 202);
  const big = only(`  pagerduty_configs:\n  - routing_key: rk\n    url: ${sink.url}/v2\n    ${LITERAL_PD.replace('firing: F', `firing: ${'y'.repeat(600_000)}`)}\n`);
  const before = sink.requests.length;
  t.same(await big.notify(requestFor(['h'])), { ok: true });
  const sent = await sink.nth(before + 1);
  t.same((sent.json as { payload: { custom_details: unknown } }).payload.custom_details, {
    error: 'Custom details have been removed because the original event exceeds the maximum size of 512KB',
  });
});

t.test('msteams: the MessageCard Alertmanager 0.26 posts, red while firing and green once resolved', async (t) => {
  const sink = await startHttpSink(t);
  const teams = only(`  msteams_configs:\n  - webhook_url: ${sink.url}/teams\n    title: Disk\n    summary: S\n    text: Body\n`);
  t.same(await teams.notify(requestFor(['host-1'])), { ok: true });
  t.same(await teams.notify(requestFor(['host-1'], { resolved: ['host-1'] })), { ok: true });
  const card = (themeColor: string) => ({ '@context': 'http://schema.org/extensions', type: 'MessageCard', title: 'Disk', summary: 'S', text: 'Body', themeColor });
  t.same((await sink.nth(1)).json, card('8C1A1A'));
  t.same((await sink.nth(2)).json, card('2DC72D'));
  sink.answerWith(() => 502);
  t.match(await teams.notify(requestFor(['host-1'])), { ok: false, retry: true, reason: 'serverError' });
});

t.test('otherIntegrations keeps configuration order per kind; unsupportedIntegrations names what is not sent', async (t) => {
  const receiver = receiverFrom('  slack_api_url: http://slack/x\n', '  slack_configs: [{channel: a}, {channel: b}]\n  msteams_configs: [{webhook_url: "http://t"}]\n  opsgenie_configs: [{api_key: k}]\n');
  t.same(
    otherIntegrations(receiver, tools).map((i) => [i.kind, i.index, i.sendResolved]),
    [
      ['slack', 0, false],
      ['slack', 1, false],
      ['msteams', 0, true],
    ],
  );
  const loaded = loadAlertmanagerConfig(
    'route:\n  receiver: ops\nreceivers:\n- name: ops\n  opsgenie_configs: [{api_key: k}]\n  telegram_configs: [{chat_id: 1, bot_token: t}, {chat_id: 2, bot_token: t}]\n- name: quiet\n  webhook_configs: [{url: "http://x"}]\n',
  );
  if (!loaded.ok) return t.fail(loaded.error);
  t.same(unsupportedIntegrations(loaded.value), [
    'receiver "ops" has 1 opsgenie_configs entry, which this service does not send (supported: webhook, email, slack, pagerduty, msteams)',
    'receiver "ops" has 2 telegram_configs entries, which this service does not send (supported: webhook, email, slack, pagerduty, msteams)',
  ]);
});
