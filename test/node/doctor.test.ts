/**
 * `npx pay-checkout doctor` against the sandbox in both dialects (exit 0, the dialect named) and the three
 * common mistakes (a wrong key, a base URL without /v1, a closed port: exit 1, one plain sentence each). The real CLI
 * as a child process, the sandbox on a real socket.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { runDoctor } from '../../src/doctor/doctor.js';
import { freePort } from './redis-harness.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

function doctor(...args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'doctor', ...args], { cwd: root, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: stdout + stderr });
    });
  });
}

/** The sentences the doctor printed for what is wrong (lines starting with ✗). */
const failures = (out: string) => out.split('\n').filter((line) => line.trimStart().startsWith('✗'));

for (const dialect of ['contract', 'live'] as const) {
  describe(`doctor against the ${dialect} dialect`, () => {
    let sandbox: RunningSandbox;
    before(async () => {
      sandbox = await startSandbox({ port: 0, dialect, defaultReceiver: false });
    });
    after(() => sandbox.close());

    it('exits 0, names the dialect and the gateways the handler could drive, and makes no order or link', async () => {
      const { code, out } = await doctor('--base-url', sandbox.baseUrl, '--merchant-key', 'mk_test_demo', '--api-key', 'pk_test_demo', '--api-secret', 'sk_test_demo');
      assert.equal(code, 0, out);
      assert.match(out, new RegExp(`^dialect: ${dialect}\\b`, 'm'));
      assert.match(out, /the handler can drive: Nequi \(push\), Daviplata \(otp\), Bre-B \(transfer\)/);
      assert.match(out, /GET \/partners\/webhook/);
      assert.match(out, dialect === 'live' ? /shape: result wrapper, gateways_object/ : /shape: data wrapper/);
      assert.deepEqual(failures(out), []);
      assert.equal(sandbox.sandbox.state.orders.size, 0);
    });

    it('a wrong key: exit 1 and one sentence naming the refused key', async () => {
      const { code, out } = await doctor('--base-url', sandbox.baseUrl, '--merchant-key', 'mk_test_nobody');
      assert.equal(code, 1, out);
      assert.deepEqual(failures(out).length, 1, out);
      assert.match(failures(out)[0] ?? '', /refused the merchant key \(HTTP 401/);
    });

    it('a base URL without /v1: exit 1 and one sentence, before any call', async () => {
      const { code, out } = await doctor('--base-url', sandbox.url, '--merchant-key', 'mk_test_demo');
      assert.equal(code, 1, out);
      assert.equal(failures(out).length, 1, out);
      assert.match(failures(out)[0] ?? '', /does not end in \/v1/);
    });
  });
}

describe('doctor: other mistakes', () => {
  it('a closed port: exit 1 and one sentence saying it cannot be reached', async () => {
    const port = await freePort();
    const { code, out } = await doctor('--base-url', `http://127.0.0.1:${port}/v1`, '--merchant-key', 'mk_test_demo');
    assert.equal(code, 1, out);
    assert.equal(failures(out).length, 1, out);
    assert.match(failures(out)[0] ?? '', new RegExp(`127\\.0\\.0\\.1:${port} cannot be reached \\(ECONNREFUSED\\)`));
  });

  it('a test key on the production URL is said plainly, and nothing is sent', async () => {
    let sent = 0;
    const report = await runDoctor({ baseUrl: 'https://api.wava.co/v1', merchantKey: 'mk_test_demo', fetch: async () => ((sent += 1), new Response('{}')) });
    assert.equal(report.ready, false);
    assert.match(report.mistake ?? '', /is a test key but https:\/\/api\.wava\.co\/v1 is the production service/);
    assert.equal(sent, 0);
  });

  it('a base URL answering HTML is said plainly', async () => {
    const html = async () => new Response('<!doctype html><title>Tienda</title>', { status: 200, headers: { 'content-type': 'text/html' } });
    const report = await runDoctor({ baseUrl: 'http://127.0.0.1:9/v1', merchantKey: 'mk_test_demo', fetch: html });
    assert.equal(report.ready, false);
    assert.match(report.checks[0]?.sentence ?? '', /answered GET \/orders\/paymentGateways with an HTML page/);
  });
});
