// The dark theme's tokens apply in both of their places: `theme="dark"`, and a dark system's setting unless the page
// asked for `theme="light"`. The system's setting is emulated where the driver can (Chromium, through Playwright); the
// rules themselves are read from the element's own style sheet in every engine.
import { expect } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import { mountWith, resetSandbox } from './support/checkout.js';

const token = (el: Element, name: string) => getComputedStyle(el).getPropertyValue(name).trim();
const darkPrimary = '#93c5fd';
const lightPrimary = '#1d4ed8';

/** The custom properties a style rule sets, in order. */
const declarations = (rule: CSSStyleRule) => [...rule.style].filter((name) => name.startsWith('--')).map((name) => `${name}:${rule.style.getPropertyValue(name).trim()}`);

describe('<pay-checkout> theme tokens', () => {
  beforeEach(resetSandbox);

  it('theme="dark" sets the dark tokens, theme="light" the light ones', async () => {
    const dark = await mountWith({ theme: 'dark' });
    expect(token(dark, '--pay-color-primary')).to.equal(darkPrimary);
    expect(token(dark, '--pay-color-background')).to.equal('#111827');
    expect(token(dark, '--pay-focus-ring')).to.equal(`3px solid ${darkPrimary}`);
    const light = await mountWith({ theme: 'light' });
    expect(token(light, '--pay-color-primary')).to.equal(lightPrimary);
  });

  it('the dark-system rule sets the same tokens as theme="dark", for a page that did not ask for light', async () => {
    const el = await mountWith({});
    const sheets = el.shadowRoot!.adoptedStyleSheets.length ? el.shadowRoot!.adoptedStyleSheets : [...el.shadowRoot!.styleSheets];
    const rules = sheets.flatMap((sheet) => [...sheet.cssRules]);
    const explicit = rules.find((rule): rule is CSSStyleRule => rule instanceof CSSStyleRule && rule.selectorText.replace(/"/g, "'") === ":host([theme='dark'])");
    const media = rules.find((rule): rule is CSSMediaRule => rule instanceof CSSMediaRule && /prefers-color-scheme:\s*dark/.test(rule.conditionText));
    const system = [...(media?.cssRules ?? [])].find((rule): rule is CSSStyleRule => rule instanceof CSSStyleRule);
    expect(explicit, 'the theme="dark" rule').to.not.equal(undefined);
    expect(system?.selectorText.replace(/"/g, "'"), 'the dark-system rule').to.equal(":host(:not([theme='light']))");
    const set = declarations(explicit!);
    expect(set).to.include(`--pay-color-primary:${darkPrimary}`);
    expect(set.length).to.equal(13);
    expect(declarations(system!)).to.deep.equal(set);
  });

  it('a dark system gets the dark tokens, unless the page asked for light', async function () {
    try {
      await emulateMedia({ colorScheme: 'dark' });
    } catch {
      this.skip();
    }
    try {
      if (!matchMedia('(prefers-color-scheme: dark)').matches) this.skip();
      expect(token(await mountWith({}), '--pay-color-primary')).to.equal(darkPrimary);
      expect(token(await mountWith({ theme: 'light' }), '--pay-color-primary')).to.equal(lightPrimary);
    } finally {
      await emulateMedia({ colorScheme: 'light' }).catch(() => undefined);
    }
  });
});
