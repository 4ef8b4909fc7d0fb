/**
 * Alertmanager's template.Data and its types (template/template.go) as Go values: Data, Alert,
 * Alerts (Firing, Resolved), KV (SortedPairs, Names, Values, Remove) and Pairs / Pair. As in
 * 0.25, KV and Pairs have no String method: fmt prints them as a map (`map[a:b]`) and a list
 * of structs (`[{a b}]`).
 */
import type { LabelSet } from '../../matchers/matcher.js';
import type { TemplateAlert, TemplateData } from '../data.js';
import { GoTime } from './time-values.js';
import { compareBytes, GoMap, GoSlice, GoStruct, STRING_SLICE, type GoType, type GoValue } from './values.js';

const ALERT_NAME = 'alertname';

/** KV.SortedPairs: `alertname` first, then the other names in Go's string order. */
function sortedNames(kv: GoMap): string[] {
  const names = [...kv.entries.keys()].filter((name) => name !== ALERT_NAME).sort(compareBytes);
  return kv.entries.has(ALERT_NAME) ? [ALERT_NAME, ...names] : names;
}

const PAIR_TYPE: GoType = { name: 'template.Pair', kind: 'struct', methods: {} };

const pair = (name: string, value: string) =>
  new GoStruct(
    PAIR_TYPE,
    new Map<string, GoValue>([
      ['Name', name],
      ['Value', value],
    ]),
  );

const pairField = (p: GoValue, field: 'Name' | 'Value') => (p as GoStruct).fields.get(field) as string;

const PAIRS_TYPE: GoType = {
  name: 'template.Pairs',
  kind: 'slice',
  methods: {
    Names: { params: [], call: (ps) => new GoSlice(STRING_SLICE, (ps as GoSlice).items.map((p) => pairField(p, 'Name'))) },
    Values: { params: [], call: (ps) => new GoSlice(STRING_SLICE, (ps as GoSlice).items.map((p) => pairField(p, 'Value'))) },
  },
};

function sortedPairs(kv: GoMap): GoSlice {
  return new GoSlice(
    PAIRS_TYPE,
    sortedNames(kv).map((name) => pair(name, kv.entries.get(name) as string)),
  );
}

export const KV_TYPE: GoType = {
  name: 'template.KV',
  kind: 'map',
  methods: {
    SortedPairs: { params: [], call: (kv) => sortedPairs(kv as GoMap) },
    Names: { params: [], call: (kv) => new GoSlice(STRING_SLICE, sortedNames(kv as GoMap)) },
    Values: { params: [], call: (kv) => new GoSlice(STRING_SLICE, sortedNames(kv as GoMap).map((name) => (kv as GoMap).entries.get(name) as string)) },
    Remove: {
      params: ['[]string'],
      call: (kv, [keys]) => {
        const drop = new Set((keys as GoSlice).items as string[]);
        return new GoMap(KV_TYPE, new Map([...(kv as GoMap).entries].filter(([name]) => !drop.has(name))));
      },
    },
  },
};

export const kv = (set: LabelSet): GoMap => new GoMap(KV_TYPE, new Map(Object.entries(set)));

const ALERT_TYPE: GoType = {
  name: 'template.Alert',
  kind: 'struct',
  methods: {},
  jsonNames: { Status: 'status', Labels: 'labels', Annotations: 'annotations', StartsAt: 'startsAt', EndsAt: 'endsAt', GeneratorURL: 'generatorURL', Fingerprint: 'fingerprint' },
};
const ALERT_LIST_TYPE: GoType = { name: '[]template.Alert', kind: 'slice', methods: {} };

function withStatus(alerts: GoValue, status: string): GoSlice {
  return new GoSlice(
    ALERT_LIST_TYPE,
    (alerts as GoSlice).items.filter((alert) => (alert as GoStruct).fields.get('Status') === status),
  );
}

const ALERTS_TYPE: GoType = {
  name: 'template.Alerts',
  kind: 'slice',
  methods: {
    Firing: { params: [], call: (alerts) => withStatus(alerts, 'firing') },
    Resolved: { params: [], call: (alerts) => withStatus(alerts, 'resolved') },
  },
};

const DATA_TYPE: GoType = {
  name: '*template.Data',
  kind: 'struct',
  methods: {},
  jsonNames: {
    Receiver: 'receiver',
    Status: 'status',
    Alerts: 'alerts',
    GroupLabels: 'groupLabels',
    CommonLabels: 'commonLabels',
    CommonAnnotations: 'commonAnnotations',
    ExternalURL: 'externalURL',
  },
};

function alertValue(alert: TemplateAlert): GoStruct {
  return new GoStruct(
    ALERT_TYPE,
    new Map<string, GoValue>([
      ['Status', alert.status],
      ['Labels', kv(alert.labels)],
      ['Annotations', kv(alert.annotations)],
      ['StartsAt', new GoTime(alert.startsAt)],
      ['EndsAt', new GoTime(alert.endsAt)],
      ['GeneratorURL', alert.generatorURL],
      ['Fingerprint', alert.fingerprint],
    ]),
  );
}

/** The Go value a template's dot is at the start: a template.Data. */
export function dataValue(data: TemplateData): GoStruct {
  return new GoStruct(
    DATA_TYPE,
    new Map<string, GoValue>([
      ['Receiver', data.receiver],
      ['Status', data.status],
      ['Alerts', new GoSlice(ALERTS_TYPE, data.alerts.map(alertValue))],
      ['GroupLabels', kv(data.groupLabels)],
      ['CommonLabels', kv(data.commonLabels)],
      ['CommonAnnotations', kv(data.commonAnnotations)],
      ['ExternalURL', data.externalURL],
    ]),
  );
}
