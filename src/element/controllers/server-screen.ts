import { adoptStyles, isServer } from 'lit';
import type { CSSResultOrNative, ReactiveController, ReactiveControllerHost } from 'lit';
import type { CheckoutLink } from '../../contract/checkout-link.js';
import { firstScreen, initialState } from '../../flow/first-screen.js';
import { onlyMethod } from '../../flow/screens.js';
import type { FlowState } from '../../flow/types.js';
import { shownLink } from '../internal/page-choices.js';
import { markFirstScreen } from '../internal/user-timing.js';

/**
 * The server-rendered first screen (declarative shadow DOM): drawn by the server from the link answer it hands over,
 * kept on screen until the client has its own, and marked as the first screen when the client takes over.
 */
/**
 * Where the page keeps the last button tapped (`earlyTapScript`, and `ServerScreen` itself once its element runs): a
 * tap on the server's screen before the client takes over is replayed on the client's copy of that button.
 */
export const earlyTapKey = 'pay-checkout.tap';

/**
 * A classic inline script for a page that draws the first screen on the server (renderHostedPage puts it before the
 * entry, with its hash in the CSP): from the first paint, the last button tapped is kept for the element to replay.
 */
export const earlyTapScript = `addEventListener("click",(e)=>{const b=e.composedPath().find((n)=>n.localName==="button");if(b)window[Symbol.for(${JSON.stringify(earlyTapKey)})]=b},true)`;

type TapRecord = Record<symbol, HTMLButtonElement | undefined>;

/** The button of the server's screen last tapped, as the step and the button's place in it; undefined if none. */
function tappedOn(nodes: readonly ChildNode[]): { step: string; index: number } | undefined {
  const page = window as unknown as TapRecord;
  const button = page[Symbol.for(earlyTapKey)];
  page[Symbol.for(earlyTapKey)] = undefined;
  const root = button?.getRootNode();
  if (!button || !(root instanceof ShadowRoot)) return undefined;
  const step = root.host;
  if (!step.hasAttribute('data-step') || !nodes.some((node) => node.contains(step))) return undefined;
  return { step: step.localName, index: [...root.querySelectorAll('button')].indexOf(button) };
}

export class ServerScreen implements ReactiveController {
  /** The server's first screen, kept until the client's first screen past loading replaces it. */
  private _nodes: ChildNode[] | undefined;
  /** Whether the server drew the first screen; unset once the first screen past loading is marked (user-timing.ts). */
  private _drawn: boolean | undefined = false;
  /** A tap on the server's screen to replay on the client's. */
  private _replay: { step: string; index: number } | undefined;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement & { renderRoot: HTMLElement | DocumentFragment },
    /** Whether the client's own screen is past loading. */
    private readonly ready: () => boolean,
  ) {
    host.addController(this);
  }

  private async _tap({ step, index }: { step: string; index: number }): Promise<void> {
    const screen = this.host.renderRoot.querySelector<HTMLElement & { updateComplete?: Promise<unknown> }>(`${step}[data-step]`);
    await screen?.updateComplete;
    screen?.shadowRoot?.querySelectorAll('button')[index]?.click();
  }

  /** Whether the server's screen is still the one on show (the element renders nothing then). */
  get showing(): boolean {
    return this._nodes !== undefined;
  }

  /**
   * The server's shadow root, when the page carries the link answer: its first screen stays until the element has
   * checked that answer (no flash of the loading screen). Null: the element makes its own root.
   */
  adopt(host: HTMLElement, styles: CSSResultOrNative[]): ShadowRoot | null {
    const root = isServer ? null : host.shadowRoot;
    if (!root || !host.querySelector(':scope > script[type="application/json"]')) return null;
    this._nodes = [...root.childNodes];
    this._drawn = true;
    adoptStyles(root, styles);
    // Taps from now on (a page without the early-tap script: from here): kept until the client's screen is ready.
    root.addEventListener('click', (e) => {
      const button = e.composedPath().find((node): node is HTMLButtonElement => node instanceof HTMLButtonElement);
      if (button && this._nodes) (window as unknown as TapRecord)[Symbol.for(earlyTapKey)] = button;
    }, true);
    return root;
  }

  hostUpdate(): void {
    if (this._nodes && this.ready()) {
      this._replay = tappedOn(this._nodes);
      for (const node of this._nodes) node.remove();
      this._nodes = undefined;
    }
  }

  hostUpdated(): void {
    const replay = this._replay;
    this._replay = undefined;
    // A button tapped on the server's screen: the same button of the client's screen, once drawn.
    if (replay) void this._tap(replay);
    if (this._drawn !== undefined && this.ready()) {
      markFirstScreen(this._drawn);
      this._drawn = undefined;
    }
  }
}

/**
 * What a server (Lit SSR) draws from the link answer it hands over (renderHostedPage checks it first): the first
 * screen, or undefined for the loading shell (a link with one method opens on its details, a later step).
 */
export function serverFirstScreen(linkData: unknown, hash: string, methods: string | undefined): FlowState | undefined {
  const link = linkData as CheckoutLink | undefined;
  const first = link?.hash === hash && Array.isArray(link.gateways) ? firstScreen(initialState(), { type: 'link_loaded', link: shownLink(link, methods) }) : undefined;
  return first && !onlyMethod(first) ? first : undefined;
}
