/**
 * The Pay-Checkout-Signature checks a PHP or Python shop copies from docs/site/merchants/any-stack.md, and the PHP
 * shop's own (examples/php/shop.php), run for real against headers made by the signer `pay-checkout serve` uses:
 * a notice's raw body and a links request's `GET <path and query>` pass; a changed byte, another secret, a `t` more
 * than 5 minutes away and a malformed header fail; while a secret rotates, either secret passes.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { signPayCheckout } from '../../src/webhooks/pay-checkout-signature.js';
import { systemBinary } from '../harness/system-packages.mjs';
import { repoRoot } from './build-helpers.js';

const page = readFileSync(path.join(repoRoot, 'docs/site/merchants/any-stack.md'), 'utf8');

/** The fenced block of `lang` on the page that holds `marker`. */
function block(lang: string, marker: string): string {
  const found = [...page.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].find((match) => match[1] === lang && (match[2] ?? '').includes(marker));
  assert.ok(found, `no \`\`\`${lang} block with ${marker} on any-stack.md`);
  return found[2] ?? '';
}

interface Case {
  name: string;
  header: string;
  text: string;
  secrets: string[];
  valid: boolean;
}

const notice = JSON.stringify({
  id: 'evt_1',
  type: 'order.paid',
  created_at: new Date().toISOString(),
  data: { link: '8f3a61c0d2b94e7a5c1e0b2d', id_order: 4521, id_external: 'x', status: 'confirmed', amount: 85_500, currency: 'COP', gateway: 'push', note: '2 × Café, señal' },
});
const linkText = 'GET /links.php?hash=8f3a61c0d2b94e7a5c1e0b2d';
/** Signed just now, so a slow start of the interpreter cannot move a case across the 5-minute line (10 s of room). */
const casesAt = (now: number): Case[] => [
  { name: 'a notice', header: signPayCheckout(['s3cret'], notice), text: notice, secrets: ['s3cret'], valid: true },
  { name: 'a links request', header: signPayCheckout(['s3cret'], linkText), text: linkText, secrets: ['s3cret'], valid: true },
  { name: 'a changed byte', header: signPayCheckout(['s3cret'], notice), text: notice.replace('85500', '85501'), secrets: ['s3cret'], valid: false },
  { name: 'another path', header: signPayCheckout(['s3cret'], linkText), text: `${linkText}0`, secrets: ['s3cret'], valid: false },
  { name: 'another secret', header: signPayCheckout(['other'], notice), text: notice, secrets: ['s3cret'], valid: false },
  { name: 'signed 310 s ago', header: signPayCheckout(['s3cret'], notice, now - 310), text: notice, secrets: ['s3cret'], valid: false },
  { name: 'signed 310 s ahead', header: signPayCheckout(['s3cret'], notice, now + 310), text: notice, secrets: ['s3cret'], valid: false },
  { name: 'signed 290 s ago', header: signPayCheckout(['s3cret'], notice, now - 290), text: notice, secrets: ['s3cret'], valid: true },
  { name: 'rotating: the receiver holds the old secret', header: signPayCheckout(['new', 'old'], notice), text: notice, secrets: ['old'], valid: true },
  { name: 'rotating: the receiver holds the new one first', header: signPayCheckout(['new'], notice), text: notice, secrets: ['new', 'old'], valid: true },
  { name: 'no header', header: '', text: notice, secrets: ['s3cret'], valid: false },
  { name: 'no v1', header: `t=${now}`, text: notice, secrets: ['s3cret'], valid: false },
  { name: 'a t that is not a number', header: signPayCheckout(['s3cret'], notice).replace(/^t=\d+/, 't=soon'), text: notice, secrets: ['s3cret'], valid: false },
];
const expected = casesAt(Math.floor(Date.now() / 1000)).map((c) => `${c.name}: ${c.valid}`);

/** Runs `program file` with the cases on stdin; it prints one JSON boolean per case. */
function judge(program: string, source: string, extension: string): Promise<string[]> {
  const file = path.join(scratch, `check.${extension}`);
  writeFileSync(file, source);
  const cases = casesAt(Math.floor(Date.now() / 1000));
  return new Promise((resolve, reject) => {
    const child = execFile(program, [file], { timeout: 20_000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`${program}: ${error.message}\n${stderr}`));
      const results = JSON.parse(stdout) as boolean[];
      resolve(cases.map((c, i) => `${c.name}: ${results[i]}`));
    });
    child.stdin?.end(JSON.stringify(cases));
  });
}

let scratch: string;

describe('the signature checks the docs give other stacks', () => {
  before(() => (scratch = mkdtempSync(path.join(tmpdir(), 'pay-checkout-any-stack-'))));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  const phpRun = `
$cases = json_decode(file_get_contents('php://stdin'), true);
echo json_encode(array_map(fn ($c) => CHECK($c['header'], $c['text'], $c['secrets']), $cases));
`;

  it('PHP (hash_hmac, hash_equals), as the page gives it', async () => {
    const source = block('php', 'function pay_checkout_signature_is_valid') + phpRun.replace('CHECK', 'pay_checkout_signature_is_valid');
    assert.deepEqual(await judge(systemBinary('php'), source, 'php'), expected);
  });

  it("PHP, the example shop's own check", async () => {
    const source = `<?php\nrequire ${JSON.stringify(path.join(repoRoot, 'examples/php/shop.php'))};\n${phpRun.replace('CHECK', 'signature_is_valid')}`;
    assert.deepEqual(await judge(systemBinary('php'), source, 'php'), expected);
  });

  it('Python (hmac.compare_digest), as the page gives it', async () => {
    const run = `
import json, sys
print(json.dumps([pay_checkout_signature_is_valid(c["header"], c["text"].encode(), c["secrets"]) for c in json.load(sys.stdin)]))
`;
    assert.deepEqual(await judge(systemBinary('python3'), block('python', 'def pay_checkout_signature_is_valid') + run, 'py'), expected);
  });
});
