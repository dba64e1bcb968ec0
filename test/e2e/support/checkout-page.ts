/**
 * The hosted checkout as a buyer sees it, over any engine's Driver: find buttons by their text and fields by their
 * label, through shadow roots, and wait on the element's step. Page scripts are strings (see driver.ts).
 */
import { waitFor, type Driver, type Script } from './driver.js';
import { settleMs, visibleTextScript, type Gateway } from './harness.js';

/** Page-side helpers every query below starts with: a deep querySelectorAll, and finders by text and by label. */
const prelude = `
  const all = (root, selector) => {
    const found = [...root.querySelectorAll(selector)];
    for (const host of root.querySelectorAll('*')) if (host.shadowRoot) found.push(...all(host.shadowRoot, selector));
    return found;
  };
  const byText = (selector, text) => all(document, selector).find((e) => (e.textContent || '').trim().startsWith(text) && e.checkVisibility());
  const byLabel = (text) => {
    const label = all(document, 'label').find((l) => (l.textContent || '').includes(text));
    return label && (label.control || label.getRootNode().getElementById(label.htmlFor));
  };`;

const query = (expression: string): Script => `(() => { ${prelude} return (${expression}); })()`;
const quoted = (text: string) => JSON.stringify(text);

/** The element's step once its screen has rendered a heading, else ''. */
const renderedStep = query(`(() => {
  const el = document.querySelector('pay-checkout');
  const heading = el?.shadowRoot?.querySelector('[data-step]')?.shadowRoot?.querySelector('h2');
  return el && heading && heading.textContent.trim() ? el.step : '';
})()`);

/** A field as a screen reader announces it on focus. */
export interface FieldReading {
  role: 'textbox' | 'combobox' | 'checkbox';
  name: string;
  description: string;
}

export class CheckoutPage {
  constructor(readonly driver: Driver) {}

  open(url: string): Promise<void> {
    return this.driver.goto(url);
  }

  /** Method → details (a Cédula, and the phone for push) → Pagar, up to the gateway's own step. */
  async payWith(gateway: Gateway): Promise<void> {
    await this.waitForStep('method');
    await this.clickButton(gateway.name);
    await this.waitForStep('details');
    await this.choose('Tipo de documento', 'Cédula de Ciudadanía (CC)');
    await this.typeInto('Número de documento', '1020304050');
    if (gateway.kind === 'push') await this.typeInto('Número de celular', '300 123 4567');
    await this.clickButton('Pagar');
    await this.waitForStep(gateway.waitingStep);
  }

  /** Waits until the checkout shows `step` with its heading rendered. */
  async waitForStep(step: string, timeoutMs = settleMs): Promise<void> {
    await waitFor(this.driver, `${renderedStep} === ${quoted(step)}`, `step "${step}"`, timeoutMs).catch(async (error: unknown) => {
      throw new Error(`${String(error)}; at step "${await this.driver.evaluate(renderedStep)}": ${await this.text()}`);
    });
  }

  /** Everything a buyer can read in the page, shadow roots included. */
  text(): Promise<string> {
    return this.driver.evaluate<string>(visibleTextScript);
  }

  /** Waits until the page's text contains `text`. */
  async waitForText(text: string): Promise<void> {
    await waitFor(this.driver, `${visibleTextScript}.includes(${quoted(text)})`, `text "${text}"`, settleMs);
  }

  /** Clicks the visible button or link whose text starts with `text`. */
  clickButton(text: string): Promise<void> {
    return this.driver.click(query(`byText('button, a', ${quoted(text)})`));
  }

  /** Types into the field labelled `label`, key by key. */
  typeInto(label: string, text: string): Promise<void> {
    return this.driver.type(query(`byLabel(${quoted(label)})`), text);
  }

  /** Picks the option whose text contains `optionText` in the select labelled `label` (input and change fire). */
  async choose(label: string, optionText: string): Promise<void> {
    const chosen = await this.driver.evaluate<boolean>(
      query(`(() => {
        const select = byLabel(${quoted(label)});
        const option = select && [...select.options].find((o) => o.textContent.includes(${quoted(optionText)}));
        if (!option) return false;
        select.focus();
        select.value = option.value;
        for (const type of ['input', 'change']) select.dispatchEvent(new Event(type, { bubbles: true, composed: true }));
        return true;
      })()`),
    );
    if (!chosen) throw new Error(`no option "${optionText}" in "${label}"`);
  }

  /**
   * Each field the current screen shows, as a screen reader names it: its role, its label, and what it is described
   * by (the hint, an error), read from the DOM the same way in every engine.
   */
  fields(): Promise<FieldReading[]> {
    return this.driver.evaluate<FieldReading[]>(`(() => {
      const screen = document.querySelector('pay-checkout')?.shadowRoot?.querySelector('[data-step]')?.shadowRoot;
      if (!screen) return [];
      const said = (node) => (node?.textContent || '').replace(/\\s+/g, ' ').trim();
      const describedBy = (c) => (c.getAttribute('aria-describedby') || '').split(/\\s+/).filter(Boolean).map((id) => said(screen.getElementById(id))).join(' ');
      return [...screen.querySelectorAll('input, select')].filter((c) => c.checkVisibility()).map((c) => ({
        role: c.localName === 'select' ? 'combobox' : c.type === 'checkbox' ? 'checkbox' : 'textbox',
        name: said(c.labels && c.labels[0]),
        description: describedBy(c),
      }));
    })()`);
  }

  /** The page's current address. */
  url(): Promise<string> {
    return this.driver.evaluate<string>('location.href');
  }

  /** Waits until the address matches `pattern` and the document has loaded. */
  async waitForUrl(pattern: RegExp): Promise<void> {
    await waitFor(this.driver, `${pattern.toString()}.test(location.href) && document.readyState === 'complete'`, `address ${pattern}`, settleMs);
  }
}
