/**
 * A thin driver over the one automation library each engine can use here: Playwright for Chromium, Puppeteer over
 * WebDriver BiDi for Firefox ESR, WebdriverIO over classic WebDriver for WebKitGTK's MiniBrowser. Only what the buyer
 * flows need: open a URL, read the page, click and type into elements found by a page-side expression, wait on states.
 * Clicks and keys are the driver's real input, not synthetic DOM events.
 */
import { chromium, type ElementHandle as PlaywrightElement } from 'playwright-core';
import puppeteer, { type ElementHandle as PuppeteerElement } from 'puppeteer-core';
import { remote } from 'webdriverio';
import { chromiumLaunchOptions } from '../../harness/chromium.mjs';
import { currentEngine, firefoxLaunchOptions, startWebKitDriver, webkitCapabilities, type Engine } from '../../harness/engines.mjs';

/** A page-side JavaScript expression, evaluated as a string (tsx's helpers do not exist in the page). */
export type Script = string;

export interface Driver {
  readonly engine: Engine;
  goto(url: string): Promise<void>;
  /** The value of `script` in the page (JSON-serialisable). */
  evaluate<T>(script: Script): Promise<T>;
  /** The value of `script` in the page's first iframe, or undefined where no script can run there (no frame, an error page). */
  frameEvaluate<T>(script: Script): Promise<T | undefined>;
  /** Clicks the element `script` evaluates to. */
  click(script: Script): Promise<void>;
  /** Focuses the element `script` evaluates to and types `text` into it, one key at a time. */
  type(script: Script, text: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts the browser for `engine` (default: $ENGINE, else Chromium) with a fresh profile. */
export async function openDriver(engine: Engine = currentEngine()): Promise<Driver> {
  if (engine === 'firefox') return openPuppeteer();
  if (engine === 'webkit') return openWebdriver();
  return openPlaywright();
}

/** The element `script` finds, or a clear error naming it. */
const element = (script: Script) => `(() => {
  const found = (${script});
  if (!(found instanceof Element)) throw new Error(${JSON.stringify(`nothing found for ${script.slice(0, 200)}`)});
  found.scrollIntoView({ block: 'center' });
  return found;
})()`;

async function openPlaywright(): Promise<Driver> {
  const browser = await chromium.launch(chromiumLaunchOptions());
  const page = await (await browser.newContext()).newPage();
  const handle = async (script: Script) => (await page.evaluateHandle(element(script))) as unknown as PlaywrightElement<Element>;
  return {
    engine: 'chromium',
    goto: async (url) => void (await page.goto(url)),
    evaluate: (script) => page.evaluate(script),
    frameEvaluate: async (script) => (page.mainFrame().childFrames()[0]?.evaluate(script) as Promise<never> | undefined)?.catch(() => undefined),
    click: async (script) => (await handle(script)).click(),
    type: async (script, text) => {
      await (await handle(script)).focus();
      await page.keyboard.type(text);
    },
    close: () => browser.close(),
  };
}

async function openPuppeteer(): Promise<Driver> {
  const browser = await puppeteer.launch(firefoxLaunchOptions());
  const page = await browser.newPage();
  const handle = async (script: Script) => (await page.evaluateHandle(element(script))) as unknown as PuppeteerElement<Element>;
  return {
    engine: 'firefox',
    goto: async (url) => void (await page.goto(url)),
    evaluate: (script) => page.evaluate(script) as Promise<never>,
    frameEvaluate: async (script) => (page.mainFrame().childFrames()[0]?.evaluate(script) as Promise<never> | undefined)?.catch(() => undefined),
    click: async (script) => (await handle(script)).click(),
    type: async (script, text) => (await handle(script)).type(text),
    close: () => browser.close(),
  };
}

/** WebKitWebDriver and its display are shared by the sessions of one test process: it holds one session at a time. */
let webkitDriver: ReturnType<typeof startWebKitDriver> | undefined;

/** Stops what drivers share between sessions (WebKitWebDriver and its display), so the test process can end. */
export async function stopSharedDrivers(): Promise<void> {
  const shared = webkitDriver;
  webkitDriver = undefined;
  (await shared?.catch(() => undefined))?.stop();
}

async function openWebdriver(): Promise<Driver> {
  webkitDriver ??= startWebKitDriver();
  const { hostname, port } = await webkitDriver;
  const browser = await remote({ hostname, port, logLevel: 'error', capabilities: webkitCapabilities() });
  const handle = async (script: Script) => browser.$(new Function(`return ${element(script)}`) as () => HTMLElement);
  return {
    engine: 'webkit',
    goto: async (url) => void (await browser.url(url)),
    evaluate: (script) => browser.execute(`return (${script});`) as Promise<never>,
    frameEvaluate: async (script) => {
      try {
        await browser.switchFrame(browser.$('iframe'));
        return (await browser.execute(`return (${script});`)) as never;
      } catch {
        return undefined;
      } finally {
        await browser.switchFrame(null).catch(() => undefined);
      }
    },
    click: async (script) => (await handle(script)).click(),
    // Element Send Keys presses each key down and up in turn (the collapse of repeated keys is in key *actions*).
    type: async (script, text) => (await handle(script)).addValue(text),
    close: () => browser.deleteSession(),
  };
}

/** Polls `script` until it is truthy; fails with `what` and the page's last answer after `timeoutMs`. */
export async function waitFor<T>(driver: Driver, script: Script, what: string, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = 'nothing yet';
  for (;;) {
    try {
      const value = await driver.evaluate<T>(script);
      if (value) return value;
      last = JSON.stringify(value);
    } catch (error) {
      last = String(error); // e.g. while a navigation replaces the page
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms (last: ${last})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
