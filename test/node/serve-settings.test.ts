// `pay-checkout serve`'s settings: each one missing or malformed stops it before it listens, with one sentence that
// names the variable and what it expects, no stack trace, and exit status 2; flags stand in for variables.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { runDoctor } from '../../src/doctor/doctor.js';
import { deliveriesCommand, serveCommand } from '../../src/server/serve/command.js';
import { parseServeCommandSettings, rawSettings } from '../../src/server/serve/settings.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), 'serve-settings-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
const linksFile = path.join(scratch, 'links.json');
writeFileSync(linksFile, JSON.stringify({ camiseta: { amount: 20_000, description: 'Camiseta', store_name: 'Tienda' } }));
const notObject = path.join(scratch, 'list.json');
writeFileSync(notObject, '[1, 2]');

const appSecret = 'app-secret-0123456789';
/** A complete, valid configuration; each case changes one thing. */
const valid = {
  PAY_CHECKOUT_MERCHANT_KEY: 'mk_test_demo',
  PAY_CHECKOUT_LINKS_URL: 'https://shop.example/pay-links/{hash}',
  PAY_CHECKOUT_APP_SECRET: appSecret,
};

/** The command in this process, its stderr and stdout caught: what an operator sees, and the exit status. */
async function run(env: Record<string, string | undefined>, argv: string[] = []) {
  const errors: string[] = [];
  const logs: string[] = [];
  const { error, log } = console;
  console.error = (...args: unknown[]) => void errors.push(args.join(' '));
  console.log = (...args: unknown[]) => void logs.push(args.join(' '));
  try {
    return { status: await serveCommand(argv, env, { probe: runDoctor }), stderr: errors.join('\n'), stdout: logs.join('\n') };
  } finally {
    console.error = error;
    console.log = log;
  }
}

// [what is wrong, environment, the variable the sentence must name, a phrase of what it expects]
const cases: [string, Record<string, string | undefined>, string, RegExp][] = [
  ['no merchant key', { ...valid, PAY_CHECKOUT_MERCHANT_KEY: undefined }, 'PAY_CHECKOUT_MERCHANT_KEY', /is not set: it expects the store's merchant key/],
  ['a base URL that is not a URL', { ...valid, PAY_CHECKOUT_BASE_URL: 'api.wava.co' }, 'PAY_CHECKOUT_BASE_URL', /http\(s\) base URL ending in \/v1/],
  ['a base URL without /v1', { ...valid, PAY_CHECKOUT_BASE_URL: 'https://api.wava.co' }, 'PAY_CHECKOUT_BASE_URL', /ending in \/v1/],
  ['an unknown environment', { ...valid, PAY_CHECKOUT_ENVIRONMENT: 'staging' }, 'PAY_CHECKOUT_ENVIRONMENT', /production or development/],
  ['both a base URL and an environment', { ...valid, PAY_CHECKOUT_BASE_URL: 'https://api.wava.co/v1', PAY_CHECKOUT_ENVIRONMENT: 'production' }, 'PAY_CHECKOUT_BASE_URL', /and PAY_CHECKOUT_ENVIRONMENT are both set: give one/],
  ['no links URL or file', { ...valid, PAY_CHECKOUT_LINKS_URL: undefined }, 'PAY_CHECKOUT_LINKS_URL', /with \{hash\} in it .*PAY_CHECKOUT_LINKS_FILE/],
  ['a links URL without {hash}', { ...valid, PAY_CHECKOUT_LINKS_URL: 'https://shop.example/pay-links' }, 'PAY_CHECKOUT_LINKS_URL', /with \{hash\} in it/],
  ['a links URL that is not http(s)', { ...valid, PAY_CHECKOUT_LINKS_URL: 'ftp://shop.example/{hash}' }, 'PAY_CHECKOUT_LINKS_URL', /http\(s\) URL/],
  ['both a links URL and a links file', { ...valid, PAY_CHECKOUT_LINKS_FILE: linksFile }, 'PAY_CHECKOUT_LINKS_URL', /and PAY_CHECKOUT_LINKS_FILE are both set/],
  ['a links file that is not there', { ...valid, PAY_CHECKOUT_LINKS_URL: undefined, PAY_CHECKOUT_LINKS_FILE: path.join(scratch, 'none.json') }, 'PAY_CHECKOUT_LINKS_FILE', /cannot be read.*ENOENT/],
  ['a links file that is not an object of records', { ...valid, PAY_CHECKOUT_LINKS_URL: undefined, PAY_CHECKOUT_LINKS_FILE: notObject }, 'PAY_CHECKOUT_LINKS_FILE', /not a JSON object of link records keyed by hash/],
  ['no app secret beside a links URL', { ...valid, PAY_CHECKOUT_APP_SECRET: undefined }, 'PAY_CHECKOUT_APP_SECRET', /needs it, as the links requests are signed/],
  ['an app secret too short', { ...valid, PAY_CHECKOUT_APP_SECRET: `${appSecret},short` }, 'PAY_CHECKOUT_APP_SECRET', /at least 16 characters/],
  ['a notify URL that is not a URL', { ...valid, PAY_CHECKOUT_NOTIFY_URL: '/notify' }, 'PAY_CHECKOUT_NOTIFY_URL', /http\(s\) URL of your app/],
  ['a notify URL without an app secret', { ...valid, PAY_CHECKOUT_LINKS_URL: undefined, PAY_CHECKOUT_LINKS_FILE: linksFile, PAY_CHECKOUT_APP_SECRET: undefined, PAY_CHECKOUT_NOTIFY_URL: 'https://shop.example/notify' }, 'PAY_CHECKOUT_APP_SECRET', /notices are signed/],
  ['a retry delay that is not a number', { ...valid, PAY_CHECKOUT_NOTIFY_RETRY_MS: '10s' }, 'PAY_CHECKOUT_NOTIFY_RETRY_MS', /whole number from 1/],
  ['a retry delay of 0', { ...valid, PAY_CHECKOUT_NOTIFY_RETRY_MS: '0' }, 'PAY_CHECKOUT_NOTIFY_RETRY_MS', /whole number from 1/],
  ['a Redis URL of another scheme', { ...valid, PAY_CHECKOUT_REDIS_URL: 'http://:hunter2@cache:6379' }, 'PAY_CHECKOUT_REDIS_URL', /redis:\/\/ or rediss:\/\//],
  ['a database URL of another scheme', { ...valid, PAY_CHECKOUT_DATABASE_URL: 'mysql://db/shop' }, 'PAY_CHECKOUT_DATABASE_URL', /postgres:\/\/ or postgresql:\/\//],
  ['both a Redis and a database URL', { ...valid, PAY_CHECKOUT_REDIS_URL: 'redis://cache:6379', PAY_CHECKOUT_DATABASE_URL: 'postgres://db/shop' }, 'PAY_CHECKOUT_REDIS_URL', /and PAY_CHECKOUT_DATABASE_URL are both set/],
  ['a webhook secret list with no secret in it', { ...valid, PAY_CHECKOUT_WEBHOOK_SECRET: ' , ' }, 'PAY_CHECKOUT_WEBHOOK_SECRET', /webhook signing secret .*lists none/],
  ['a token secret too short', { ...valid, PAY_CHECKOUT_SECRET: 'short' }, 'PAY_CHECKOUT_SECRET', /at least 16 characters/],
  ['an allowed origin with a path', { ...valid, PAY_CHECKOUT_ALLOWED_ORIGINS: 'https://shop.example, https://shop.example/tienda' }, 'PAY_CHECKOUT_ALLOWED_ORIGINS', /origins, like https:\/\/shop.example/],
  ['a public URL with a path', { ...valid, PAY_CHECKOUT_PUBLIC_URL: 'https://pay.shop.example/checkout' }, 'PAY_CHECKOUT_PUBLIC_URL', /http\(s\) origin buyers reach this server at.*no path or query/],
  ['a public URL with a query', { ...valid, PAY_CHECKOUT_PUBLIC_URL: 'https://pay.shop.example/?a=1' }, 'PAY_CHECKOUT_PUBLIC_URL', /no path or query/],
  ['a public URL that is a bare host', { ...valid, PAY_CHECKOUT_PUBLIC_URL: 'pay.shop.example' }, 'PAY_CHECKOUT_PUBLIC_URL', /http\(s\) origin/],
  ['a public URL of another scheme', { ...valid, PAY_CHECKOUT_PUBLIC_URL: 'ftp://pay.shop.example' }, 'PAY_CHECKOUT_PUBLIC_URL', /http\(s\) origin/],
  ['a frame ancestor that is a wildcard', { ...valid, PAY_CHECKOUT_FRAME_ANCESTORS: 'https://shop.example, *' }, 'PAY_CHECKOUT_FRAME_ANCESTORS', /your own origins allowed to frame the hosted page/],
  ['a frame ancestor with a path', { ...valid, PAY_CHECKOUT_FRAME_ANCESTORS: 'https://shop.example/tienda' }, 'PAY_CHECKOUT_FRAME_ANCESTORS', /origins allowed to frame/],
  ['a frame ancestor that would add a directive', { ...valid, PAY_CHECKOUT_FRAME_ANCESTORS: "https://shop.example; script-src 'unsafe-inline'" }, 'PAY_CHECKOUT_FRAME_ANCESTORS', /origins allowed to frame/],
  ['a proxy count that is not a number', { ...valid, PAY_CHECKOUT_TRUST_PROXY: 'yes' }, 'PAY_CHECKOUT_TRUST_PROXY', /whole number from 0/],
  ['a port past 65535', { ...valid, PORT: '70000' }, 'PORT', /port number from 0 to 65535/],
  ['a port that is not a number', { ...valid, PORT: 'http' }, 'PORT', /port number from 0 to 65535/],
  ['a host that is no address or name', { ...valid, HOST: 'http://0.0.0.0' }, 'HOST', /the interface to listen on/],
];

describe('pay-checkout serve: a missing or malformed setting', () => {
  for (const [what, env, variable, expects] of cases) {
    test(`${what}: one sentence naming ${variable}, exit 2, before it listens`, async () => {
      const { status, stderr, stdout } = await run(env);
      assert.equal(status, 2);
      assert.equal(stdout, '', 'nothing else is printed');
      assert.equal(stderr.split('\n').length, 1, stderr);
      assert.match(stderr, new RegExp(`^pay-checkout serve: ${variable} `));
      assert.match(stderr, expects);
      assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
    });
  }

  test('a secret is never printed, not even a short one; a store URL is printed without its password', async () => {
    const secret = await run({ ...valid, PAY_CHECKOUT_APP_SECRET: 'tooShortSecret' });
    assert.doesNotMatch(secret.stderr, /tooShortSecret/);
    const redis = await run({ ...valid, PAY_CHECKOUT_REDIS_URL: 'http://:hunter2@cache:6379' });
    assert.doesNotMatch(redis.stderr, /hunter2/);
    // A malformed notify URL whose credentials or query carry a token: the sentence names the URL without them.
    const notify = await run({ ...valid, PAY_CHECKOUT_NOTIFY_URL: 'ftp://shop:s3cretpass@shop.example/notify?token=t0ken' });
    assert.equal(notify.status, 2);
    assert.match(notify.stderr, /PAY_CHECKOUT_NOTIFY_URL is malformed/);
    assert.doesNotMatch(notify.stderr, /s3cretpass|t0ken/);
  });

  test('no value is echoed with its user info, query or password, with or without //', async () => {
    const echoed: [string, Record<string, string>, RegExp][] = [
      ['a links URL without {hash}', { PAY_CHECKOUT_LINKS_URL: 'https://shop:L1nkPass@shop.example/pay-links?token=L1nkT0ken' }, /"https:\/\/…@shop\.example\/pay-links\?…"/],
      ['a base URL without /v1', { PAY_CHECKOUT_BASE_URL: 'https://api:BaseP4ss@api.wava.co/v2?key=BaseT0ken' }, /"https:\/\/…@api\.wava\.co\/v2\?…"/],
      ['a notify URL without //', { PAY_CHECKOUT_NOTIFY_URL: 'u:N0tifyPass@shop/notify' }, /"…@shop\/notify"/],
      ['a Redis URL without //', { PAY_CHECKOUT_REDIS_URL: 'default:R3disPass@127.0.0.1:6379' }, /"…@127\.0\.0\.1:6379"/],
      ['a libpq string', { PAY_CHECKOUT_DATABASE_URL: 'host=db user=shop password=Pg5ecret dbname=shop' }, /"host=db user=shop password=… dbname=shop"/],
    ];
    for (const [what, change, stays] of echoed) {
      const { status, stderr } = await run({ ...valid, ...change });
      assert.equal(status, 2, what);
      assert.match(stderr, stays, what);
      assert.doesNotMatch(stderr, /L1nkPass|L1nkT0ken|BaseP4ss|BaseT0ken|N0tifyPass|R3disPass|Pg5ecret/, what);
    }
  });

  test('an unknown flag is one line and exit 2', async () => {
    const { status, stderr } = await run(valid, ['--merchant-kye', 'x']);
    assert.equal(status, 2);
    assert.match(stderr, /^pay-checkout serve: Unknown option '--merchant-kye'/);
  });

  test('the installed command: one line on stderr and exit status 2, nothing listening', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve', '--port', '0'], {
      cwd: root,
      env: { PATH: process.env.PATH, PAY_CHECKOUT_LINKS_FILE: linksFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const [code] = (await once(child, 'exit')) as [number];
    assert.equal(code, 2);
    assert.equal(stdout, '');
    assert.equal(stderr, "pay-checkout serve: PAY_CHECKOUT_MERCHANT_KEY is not set: it expects the store's merchant key.\n");
  });
});

describe('pay-checkout deliveries: its settings', () => {
  const deliveries = async (env: Record<string, string | undefined>) => {
    const errors: string[] = [];
    const { error } = console;
    console.error = (...args: unknown[]) => void errors.push(args.join(' '));
    try {
      return { status: await deliveriesCommand([], env), stderr: errors.join('\n') };
    } finally {
      console.error = error;
    }
  };

  test('without a shared store: one sentence saying the outbox is inside the serve process, exit 2', async () => {
    const { status, stderr } = await deliveries({ PAY_CHECKOUT_NOTIFY_URL: 'https://shop.example/notify', PAY_CHECKOUT_APP_SECRET: appSecret });
    assert.equal(status, 2);
    assert.match(stderr, /^pay-checkout deliveries: PAY_CHECKOUT_REDIS_URL is not set: .*inside the serve process\.$/);
  });

  test('without the notify URL a redelivery is sent to: one sentence naming it, exit 2', async () => {
    const { status, stderr } = await deliveries({ PAY_CHECKOUT_REDIS_URL: 'redis://127.0.0.1:6379', PAY_CHECKOUT_APP_SECRET: appSecret });
    assert.equal(status, 2);
    assert.match(stderr, /^pay-checkout deliveries: PAY_CHECKOUT_NOTIFY_URL is not set/);
  });
});

describe('pay-checkout serve: settings as given', () => {
  test('a flag stands in for its variable and wins over it; empty variables are unset', () => {
    const settings = parseServeCommandSettings(
      rawSettings({ ...valid, PAY_CHECKOUT_NOTIFY_URL: '', PORT: '8080' }, { 'links-url': 'http://127.0.0.1:9000/links/{hash}', port: '9090', 'allowed-origins': 'https://shop.example,https://www.shop.example' }),
    );
    assert.deepEqual(settings.links, { kind: 'url', url: 'http://127.0.0.1:9000/links/{hash}', secrets: [appSecret] });
    assert.equal(settings.port, 9090);
    assert.equal(settings.notifyUrl, undefined);
    assert.deepEqual(settings.allowedOrigins, ['https://shop.example', 'https://www.shop.example']);
    assert.deepEqual(settings.service, { environment: 'production' });
    assert.deepEqual(settings.store, { kind: 'memory' });
    assert.equal(settings.host, undefined);
    assert.equal(settings.publicUrl, undefined);
    assert.deepEqual(settings.frameAncestors, [], "no one frames the hosted page unless named");
    assert.equal(parseServeCommandSettings(rawSettings({ ...valid, HOST: '[::1]' })).host, '::1');
    assert.equal(parseServeCommandSettings(rawSettings({ ...valid, HOST: 'localhost' })).host, 'localhost');
  });

  test('secrets rotate as comma lists; a base URL picks the service', () => {
    const settings = parseServeCommandSettings(
      rawSettings({ ...valid, PAY_CHECKOUT_APP_SECRET: `${appSecret}, old-app-secret-0123456`, PAY_CHECKOUT_SECRET: 'token-secret-0123456789,older-token-secret-01', PAY_CHECKOUT_BASE_URL: 'http://127.0.0.1:4010/v1/' }),
    );
    assert.deepEqual(settings.appSecrets, [appSecret, 'old-app-secret-0123456']);
    assert.deepEqual(settings.secret, ['token-secret-0123456789', 'older-token-secret-01']);
    assert.deepEqual(settings.service, { baseUrl: 'http://127.0.0.1:4010/v1' });
  });

  test('the public URL is kept as an origin; frame ancestors as origins or self', () => {
    const settings = parseServeCommandSettings(rawSettings(valid, { 'public-url': 'https://Pay.Shop.example:443/', 'frame-ancestors': "https://shop.example, 'self',http://localhost:8000" }));
    assert.equal(settings.publicUrl, 'https://pay.shop.example');
    assert.deepEqual(settings.frameAncestors, ['https://shop.example', "'self'", 'http://localhost:8000']);
  });
});
