// docs/site/merchants/hosted-page.md: the static deploy step and the headers a drawn page goes with, imported from
// pay-checkout/server/hosted-page (what a production server imports, not the sandbox), types checked without
// skipLibCheck. Run by the pack check: it prints `hosted page ok` or throws.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderHostedPage, writeHostedPage, type RenderedHostedPage } from 'pay-checkout/server/hosted-page';

const built = path.dirname(fileURLToPath(import.meta.resolve('pay-checkout/hosted/index.html')));
const out = mkdtempSync(path.join(tmpdir(), 'hosted-page-'));
try {
  writeHostedPage({ from: built, outDir: out, apiBase: 'https://api.example.com/v1', frameAncestors: ['https://shop.example'] });
  const headers = readFileSync(path.join(out, '_headers'), 'utf8');
  if (!/^\/checkout\/\*\n {2}Content-Security-Policy: [^\n]*frame-ancestors https:\/\/shop\.example\n/.test(headers)) throw new Error(`_headers: ${headers}`);
  const page = readFileSync(path.join(out, 'index.html'), 'utf8');
  // A link it cannot draw: the page as built, and still the headers it must go with.
  const drawn: RenderedHostedPage = await renderHostedPage(page, { hash: 'none', link: null, url: 'https://shop.example/checkout/none', withHeaders: true });
  const alone: string = await renderHostedPage(page, { hash: 'none', link: null });
  if (drawn.html !== alone || drawn.headers['X-Frame-Options'] !== 'DENY' || drawn.headers['Strict-Transport-Security'] !== 'max-age=31536000') {
    throw new Error(`renderHostedPage's headers: ${JSON.stringify(drawn.headers)}`);
  }
  console.log('hosted page ok');
} finally {
  rmSync(out, { recursive: true, force: true });
}
