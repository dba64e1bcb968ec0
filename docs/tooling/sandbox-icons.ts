/**
 * Writes src/sandbox/pages/icon-pngs.ts: the sandbox's gateway logos (src/sandbox/pages/icons.ts, SVG) drawn by
 * Debian's Chromium at 64 × 64 as PNG, the format the live service serves its logos in. Run it after changing a logo:
 * `npx tsx docs/tooling/sandbox-icons.ts`.
 */
import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { gatewayIcons } from '../../src/sandbox/pages/icons.js';
import { chromiumLaunchOptions } from '../../test/harness/chromium.mjs';

const browser = await chromium.launch(chromiumLaunchOptions());
const lines: string[] = [];
try {
  const page = await browser.newPage({ viewport: { width: 64, height: 64 }, deviceScaleFactor: 1 });
  for (const [name, svg] of Object.entries(gatewayIcons)) {
    await page.setContent(`<body style="margin:0;background:transparent">${svg}</body>`);
    const png = await page.locator('svg').screenshot({ omitBackground: true });
    lines.push(`  '${name.replace(/\.svg$/, '.png')}': '${png.toString('base64')}',`);
  }
} finally {
  await browser.close();
}
const file = new URL('../../src/sandbox/pages/icon-pngs.ts', import.meta.url);
writeFileSync(
  file,
  `/**
 * The gateway logos as PNG, as the live service serves its logos (spec/live-service-facts.md: \`…/nequi-icon.png\`):
 * icons.ts' drawings rendered by Chromium at 64 × 64 (written by docs/tooling/sandbox-icons.ts). A phone decodes a
 * small PNG off its main thread; each SVG logo is a document of its own to build on it: the four took 60-120 ms of
 * main thread in the second after the first screen (mobile profile, 4x CPU), where a quick tap waited behind them.
 */
export const gatewayIconPngs: Record<string, string> = {
${lines.join('\n')}
};
`,
);
console.log(`wrote ${file.pathname}`);
