import t from 'tap';
import { FlagSet, flagExitCode, formatGoDuration, parseGoBool, parseGoDuration, type FlagOutcome } from '../../../src/cli/flags.js';

/** A flag set like the client's: string with default, bool, duration, repeatable func. */
function clientLike() {
  const flags = new FlagSet('prog');
  const dial = flags.string('dial_string', 'localhost:8081', 'url of ratelimit server in <host>:<port> form');
  const domain = flags.string('domain', '', 'rate limit configuration domain to query');
  const tls = flags.bool('grpc-use-tls', false, 'Use TLS for connection to server');
  const timeout = flags.duration('timeout', 5000, 'deadline of the call', (ms) => (ms > 0 ? undefined : 'must be greater than 0'));
  const seen: string[] = [];
  const descriptors = flags.func('descriptors', 'descriptor list', (text) => {
    if (!text.includes('=')) throw new Error('invalid descriptor list');
    seen.push(text);
  });
  return { flags, dial, domain, tls, timeout, descriptors, seen };
}

function errorOf(outcome: FlagOutcome): string {
  return outcome.status === 'error' ? outcome.message : `not an error: ${outcome.status}`;
}

t.test('defaults stand when no flag is given', async (t) => {
  const f = clientLike();
  t.same(f.flags.parse([]), { status: 'ok', args: [] });
  t.equal(f.dial.value, 'localhost:8081');
  t.equal(f.dial.isSet, false);
  t.equal(f.domain.value, '');
  t.equal(f.tls.value, false);
  t.equal(f.timeout.value, 5000);
  t.same(f.descriptors.value, []);
});

t.test('every spelling Go accepts: -f v, -f=v, --f v, --f=v', async (t) => {
  for (const argv of [
    ['-domain', 'basic'],
    ['-domain=basic'],
    ['--domain', 'basic'],
    ['--domain=basic'],
  ]) {
    const f = clientLike();
    t.same(f.flags.parse(argv), { status: 'ok', args: [] }, argv.join(' '));
    t.equal(f.domain.value, 'basic', argv.join(' '));
    t.equal(f.domain.isSet, true, argv.join(' '));
  }
});

t.test('a value may contain = and may start with -', async (t) => {
  const f = clientLike();
  t.same(f.flags.parse(['-domain=a=b', '-dial_string', '-weird', '-descriptors', 'k=v=w']), { status: 'ok', args: [] });
  t.equal(f.domain.value, 'a=b');
  t.equal(f.dial.value, '-weird');
  t.same(f.seen, ['k=v=w']);
});

t.test('an empty value is a value', async (t) => {
  const f = clientLike();
  t.same(f.flags.parse(['-dial_string=', '-domain', '']), { status: 'ok', args: [] });
  t.equal(f.dial.value, '');
  t.equal(f.dial.isSet, true);
  t.equal(f.domain.value, '');
});

t.test('scalars: the last occurrence wins; func flags see every occurrence in order', async (t) => {
  const f = clientLike();
  f.flags.parse(['-domain', 'a', '-descriptors', 'x=1', '-domain=b', '--descriptors=y=2,z=3', '-descriptors', 'w=4']);
  t.equal(f.domain.value, 'b');
  t.same(f.seen, ['x=1', 'y=2,z=3', 'w=4']);
  t.same(f.descriptors.value, ['x=1', 'y=2,z=3', 'w=4']);
});

t.test('booleans: -b, -b=<bool> in every form ParseBool takes; -b false stops at "false"', async (t) => {
  for (const [argv, value] of [
    [['-grpc-use-tls'], true],
    [['--grpc-use-tls'], true],
    [['-grpc-use-tls=true'], true],
    [['-grpc-use-tls=1'], true],
    [['-grpc-use-tls=t'], true],
    [['-grpc-use-tls=T'], true],
    [['-grpc-use-tls=TRUE'], true],
    [['-grpc-use-tls=True'], true],
    [['-grpc-use-tls', '-grpc-use-tls=false'], false],
    [['-grpc-use-tls=0'], false],
    [['-grpc-use-tls=f'], false],
    [['-grpc-use-tls=F'], false],
    [['-grpc-use-tls=FALSE'], false],
    [['-grpc-use-tls=False'], false],
  ] as Array<[string[], boolean]>) {
    const f = clientLike();
    t.same(f.flags.parse(argv), { status: 'ok', args: [] }, argv.join(' '));
    t.equal(f.tls.value, value, argv.join(' '));
  }
  const f = clientLike();
  t.same(f.flags.parse(['-grpc-use-tls', 'false', '-domain', 'x']), { status: 'ok', args: ['false', '-domain', 'x'] });
  t.equal(f.tls.value, true, 'Go semantics: a boolean never takes the next argument');
  t.equal(f.domain.value, '', 'parsing stopped at the positional argument');
});

t.test('parsing stops at the first non-flag, at a lone "-" and after "--"', async (t) => {
  let f = clientLike();
  t.same(f.flags.parse(['-domain', 'a', 'rest', '-domain', 'b']), { status: 'ok', args: ['rest', '-domain', 'b'] });
  t.equal(f.domain.value, 'a');
  f = clientLike();
  t.same(f.flags.parse(['-', '-domain', 'b']), { status: 'ok', args: ['-', '-domain', 'b'] });
  t.equal(f.domain.value, '');
  f = clientLike();
  t.same(f.flags.parse(['-domain', 'a', '--', '-domain', 'b']), { status: 'ok', args: ['-domain', 'b'] });
  t.equal(f.domain.value, 'a');
});

t.test('durations in Go syntax', async (t) => {
  for (const [text, ms] of [
    ['300ms', 300],
    ['5s', 5000],
    ['1m30s', 90_000],
    ['1.5h', 5_400_000],
    ['2500us', 2.5],
  ] as Array<[string, number]>) {
    const f = clientLike();
    t.same(f.flags.parse(['-timeout', text]), { status: 'ok', args: [] }, text);
    t.equal(f.timeout.value, ms, text);
  }
  t.equal(parseGoDuration('5'), undefined, 'a number needs a unit');
  t.equal(parseGoDuration(' 5s'), undefined, 'no spaces, as Go');
  t.equal(parseGoDuration('0'), 0);
  t.equal(parseGoDuration('1d'), undefined);
  t.equal(formatGoDuration(5000), '5s');
  t.equal(formatGoDuration(90_000), '1m30s');
  t.equal(formatGoDuration(5_400_000), '1h30m0s');
  t.equal(formatGoDuration(300), '300ms');
  t.equal(formatGoDuration(1500), '1.5s');
  t.equal(formatGoDuration(0), '0s');
  t.equal(formatGoDuration(0.5), '500µs');
});

t.test("Go's error messages, each followed by the usage; exit code 2", async (t) => {
  const cases: Array<[string[], string]> = [
    [['-nope'], 'flag provided but not defined: -nope'],
    [['--nope=1'], 'flag provided but not defined: -nope'],
    [['-domain'], 'flag needs an argument: -domain'],
    [['-grpc-use-tls=maybe'], 'invalid boolean value "maybe" for -grpc-use-tls: parse error'],
    [['-timeout', 'soon'], 'invalid value "soon" for flag -timeout: parse error'],
    [['-timeout=0s'], 'invalid value "0s" for flag -timeout: must be greater than 0'],
    [['-descriptors', 'novalue'], 'invalid value "novalue" for flag -descriptors: invalid descriptor list'],
    [['---domain'], 'bad flag syntax: ---domain'],
    [['-=x'], 'bad flag syntax: -=x'],
    [['--=x'], 'bad flag syntax: --=x'],
  ];
  for (const [argv, message] of cases) {
    const f = clientLike();
    const outcome = f.flags.parse(argv);
    t.equal(errorOf(outcome), message, argv.join(' '));
    if (outcome.status !== 'error') continue;
    t.equal(outcome.stderr, `${message}\n${f.flags.usage()}`, `${argv.join(' ')}: message then usage`);
    t.equal(flagExitCode(outcome), 2);
  }
  const f = clientLike();
  f.flags.parse(['-domain', 'kept', '-nope']);
  t.equal(f.domain.value, 'kept', 'flags before the error were applied');
});

t.test('-h and -help print the usage; exit code 0', async (t) => {
  for (const arg of ['-h', '-help', '--h', '--help']) {
    const f = clientLike();
    const outcome = f.flags.parse(['-domain', 'x', arg, '-nope']);
    t.same(outcome, { status: 'help', stderr: f.flags.usage() }, arg);
    if (outcome.status === 'help') t.equal(flagExitCode(outcome), 0);
  }
});

t.test("usage text is Go's PrintDefaults: sorted, typed, defaults shown unless zero", async (t) => {
  const f = clientLike();
  t.equal(
    f.flags.usage(),
    [
      'Usage of prog:',
      '  -descriptors value',
      '    \tdescriptor list',
      '  -dial_string string',
      '    \turl of ratelimit server in <host>:<port> form (default "localhost:8081")',
      '  -domain string',
      '    \trate limit configuration domain to query',
      '  -grpc-use-tls',
      '    \tUse TLS for connection to server',
      '  -timeout duration',
      '    \tdeadline of the call (default 5s)',
      '',
    ].join('\n'),
  );
  const short = new FlagSet('p');
  short.bool('v', true, 'verbose\nsecond line');
  short.string('o', '', 'output `file`');
  t.equal(short.usage(), ['Usage of p:', '  -o file', '    \toutput file', '  -v\tverbose', '    \tsecond line (default true)', ''].join('\n'), 'one-letter flags, back-quoted names, multi-line usage');
});

t.test('failure() reports a problem found after parsing with the usage', async (t) => {
  const f = clientLike();
  t.same(f.flags.failure('missing required flag: -domain'), {
    status: 'error',
    message: 'missing required flag: -domain',
    stderr: `missing required flag: -domain\n${f.flags.usage()}`,
  });
});

t.test('a flag defined twice is a programming error', async (t) => {
  const flags = new FlagSet('p');
  flags.string('a', '', '');
  t.throws(() => flags.bool('a', false, ''), new Error('p flag redefined: a'));
});

t.test('parseGoBool', async (t) => {
  t.equal(parseGoBool('true'), true);
  t.equal(parseGoBool('0'), false);
  t.equal(parseGoBool('yes'), undefined);
  t.equal(parseGoBool('tRUE'), undefined);
  t.equal(parseGoBool(''), undefined);
});
