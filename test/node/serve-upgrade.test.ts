// `pay-checkout serve` upgraded in place: the hashed files of the version before stay served (a buyer's page still
// running its script finds its chunks), for a week after that version last ran, from the folder it kept them in.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ServerEvent } from '../../src/server/events.js';
import { keptAssetsDir } from '../../src/server/serve/assets.js';
import { startServeCommand } from '../../src/server/serve/index.js';
import { parseServeCommandSettings, rawSettings } from '../../src/server/serve/settings.js';
import { startTestSandbox, type TestSandbox } from './sandbox-harness.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'serve-upgrade-'));
const links = path.join(scratch, 'links.json');
writeFileSync(links, '{}');

/** A version's dist/: the script, one chunk and the hosted page's entry, each named with the version's hash. */
function version(name: string, hash: string): string {
  const dist = path.join(scratch, name);
  mkdirSync(path.join(dist, 'hosted', 'assets'), { recursive: true });
  writeFileSync(path.join(dist, 'pay-checkout.js'), `import("./pay-checkout.en-${hash}.js"); // ${name}\n`);
  writeFileSync(path.join(dist, `pay-checkout.en-${hash}.js`), `export const en = "${name}";\n`);
  writeFileSync(path.join(dist, 'hosted', 'index.html'), readFileSync(new URL('../../hosted/index.html', import.meta.url), 'utf8').replace('src="./main.ts"', `src="/checkout/assets/main-${hash}.js"`));
  writeFileSync(path.join(dist, 'hosted', 'assets', `main-${hash}.js`), `export const main = "${name}";\n`);
  return dist;
}

describe('pay-checkout serve after an upgrade: the earlier version\'s chunks', () => {
  let sandbox: TestSandbox;
  const older = version('older', 'Aa1_Bb2-');
  const newer = version('newer', 'Cc3_Dd4-');

  before(async () => (sandbox = await startTestSandbox()));
  after(async () => {
    await sandbox?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** Starts serve on `dist` keeping chunks in `kept`, runs `use` against its URL, and closes it. */
  async function run(dist: string, kept: string | false, use: (url: string, events: ServerEvent[]) => Promise<void>): Promise<void> {
    const events: ServerEvent[] = [];
    const env = { PAY_CHECKOUT_MERCHANT_KEY: 'mk_test_demo', PAY_CHECKOUT_BASE_URL: `${sandbox.origin}/v1`, PAY_CHECKOUT_LINKS_FILE: links, PORT: '0', HOST: '127.0.0.1' };
    const serve = await startServeCommand(parseServeCommandSettings(rawSettings(env)), { onEvent: (e) => events.push(e), dist, keptAssets: kept });
    try {
      await use(serve.url, events);
    } finally {
      await serve.close({ graceMs: 0 });
    }
  }

  test('the version before\'s chunks and hosted files are still served, cached for good, beside the new script', async () => {
    const kept = path.join(scratch, 'kept-1');
    await run(older, kept, async () => undefined);
    await run(newer, kept, async (url, events) => {
      assert.match(await (await fetch(`${url}/pay-checkout.js`)).text(), /newer/);
      for (const [file, from] of [['/pay-checkout.en-Aa1_Bb2-.js', 'older'], ['/pay-checkout.en-Cc3_Dd4-.js', 'newer'], ['/checkout/assets/main-Aa1_Bb2-.js', 'older']] as const) {
        const answer = await fetch(`${url}${file}`);
        assert.equal(answer.status, 200, file);
        assert.equal(answer.headers.get('cache-control'), 'public, max-age=31536000, immutable', file);
        assert.match(await answer.text(), new RegExp(from), file);
      }
      assert.ok(events.some((e) => e.name === 'assets_kept' && e.message.startsWith('2 files')), JSON.stringify(events.map((e) => e.name)));
    });
    // Without the kept folder, the same upgrade loses them.
    await run(newer, false, async (url) => assert.equal((await fetch(`${url}/pay-checkout.en-Aa1_Bb2-.js`)).status, 404));
  });

  test('an earlier version\'s chunk goes a week after that version last ran; a file there that is no chunk is never served', async () => {
    const kept = path.join(scratch, 'kept-2');
    await run(older, kept, async () => undefined);
    const old = path.join(kept, 'pay-checkout.en-Aa1_Bb2-.js');
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000);
    utimesSync(old, eightDaysAgo, eightDaysAgo);
    writeFileSync(path.join(kept, 'pay-checkout.js'), 'planted');
    writeFileSync(path.join(kept, 'other-Ee5_Ff6-.js'), 'planted');
    await run(newer, kept, async (url) => {
      assert.equal((await fetch(`${url}/pay-checkout.en-Aa1_Bb2-.js`)).status, 404);
      assert.equal(existsSync(old), false, 'deleted');
      assert.equal((await fetch(`${url}/checkout/assets/main-Aa1_Bb2-.js`)).status, 200, 'a week has not passed for this one');
      assert.match(await (await fetch(`${url}/pay-checkout.js`)).text(), /newer/);
      assert.equal((await fetch(`${url}/other-Ee5_Ff6-.js`)).status, 404);
    });
  });

  test('a folder that cannot be written: the new version is served, and a warning says earlier chunks are not kept', async () => {
    const notAFolder = path.join(scratch, 'a-file');
    writeFileSync(notAFolder, '');
    await run(newer, notAFolder, async (url, events) => {
      assert.equal((await fetch(`${url}/pay-checkout.en-Cc3_Dd4-.js`)).status, 200);
      assert.ok(events.some((e) => e.name === 'assets_keep_failed' && e.level === 'warn'), JSON.stringify(events.map((e) => e.name)));
    });
  });

  test('the kept folder of an installed package is its node_modules/.cache; a dist/ outside node_modules keeps none', () => {
    assert.equal(keptAssetsDir('/srv/shop/node_modules/pay-checkout/dist'), path.normalize('/srv/shop/node_modules/.cache/pay-checkout/assets'));
    assert.equal(keptAssetsDir('/work/pay-checkout/dist'), undefined);
  });
});
