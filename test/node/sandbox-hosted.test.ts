// The sandbox serves a built hosted page: assets as themselves, any other /checkout/* path as index.html.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { findHostedDir } from '../../src/sandbox/routes/pages.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';

describe('hosted page from a build folder', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pay-hosted-'));
  let sandbox: RunningSandbox;

  before(async () => {
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>hosted</title>');
    writeFileSync(path.join(dir, 'assets', 'main.js'), 'export const hosted = true;');
    // A trailing slash, as a deployer would type it.
    sandbox = await startSandbox({ port: 0, hostedDir: `${dir}/`, defaultReceiver: false });
  });
  after(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('an asset is served as itself, with a JavaScript type', async () => {
    const res = await fetch(`${sandbox.url}/checkout/assets/main.js`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /javascript/);
    assert.equal(await res.text(), 'export const hosted = true;');
  });

  test('a link path is answered with index.html', async () => {
    const res = await fetch(`${sandbox.url}/checkout/demo-fixed`);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /<title>hosted<\/title>/);
  });

  test('the default folders are found without their trailing slash, so assets inside them match', () => {
    assert.equal(findHostedDir(undefined, [`${dir}/`]), dir);
    assert.equal(findHostedDir(undefined, [path.join(dir, 'missing/'), `${dir}/`]), dir);
  });

  test('a path outside the folder is never read', async () => {
    const res = await fetch(`${sandbox.url}/checkout/..%2f..%2fpackage.json`);
    assert.doesNotMatch(await res.text(), /"name"/);
  });
});

describe('the script-tag build beside the hosted page', () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'pay-dist-'));
  let sandbox: RunningSandbox;

  before(async () => {
    mkdirSync(path.join(dist, 'hosted'));
    writeFileSync(path.join(dist, 'hosted', 'index.html'), '<!doctype html><title>hosted</title>');
    writeFileSync(path.join(dist, 'pay-checkout.js'), 'import("./pay-checkout.en-Ab_1.js");');
    writeFileSync(path.join(dist, 'pay-checkout.en-Ab_1.js'), 'export default {};');
    sandbox = await startSandbox({ port: 0, hostedDir: path.join(dist, 'hosted'), defaultReceiver: false });
  });
  after(async () => {
    await sandbox.close();
    rmSync(dist, { recursive: true, force: true });
  });

  test('the script and its chunks are served with CORS, for a merchant page on another origin', async () => {
    for (const name of ['pay-checkout.js', 'pay-checkout.en-Ab_1.js']) {
      const res = await fetch(`${sandbox.url}/${name}`, { headers: { Origin: 'http://127.0.0.1:9' } });
      assert.equal(res.status, 200, name);
      assert.match(res.headers.get('content-type') ?? '', /javascript/);
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
    }
  });

  test('compressed where the browser takes it, as a CDN sends them, for a phone on 1.6 Mbps', async () => {
    const script = `${'export const a = "the same line, again and again";\n'.repeat(60)}`;
    writeFileSync(path.join(dist, 'pay-checkout.later-steps-Zz_1.js'), script);
    const zipped = await new Promise<{ encoding: string | undefined; cors: string | undefined; body: Buffer }>((resolve, reject) => {
      // node:http, not fetch: fetch would undo the gzip and hide it.
      get(`${sandbox.url}/pay-checkout.later-steps-Zz_1.js`, { headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (part: Buffer) => parts.push(part));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], cors: res.headers['access-control-allow-origin'] as string | undefined, body: Buffer.concat(parts) }));
      }).on('error', reject);
    });
    assert.equal(zipped.encoding, 'gzip');
    assert.equal(zipped.cors, '*');
    assert.equal(gunzipSync(zipped.body).toString('utf8'), script);
    // Without gzip in Accept-Encoding, as it is.
    const plain = await fetch(`${sandbox.url}/pay-checkout.later-steps-Zz_1.js`, { headers: { 'Accept-Encoding': 'identity' } });
    assert.equal(plain.headers.get('content-encoding'), null);
    assert.equal(await plain.text(), script);
  });

  test('other names are not served', async () => {
    assert.equal((await fetch(`${sandbox.url}/pay-checkout.missing-X.js`)).status, 404);
    assert.equal((await fetch(`${sandbox.url}/other.js`)).status, 404);
  });
});
