import { adoptStyles, isServer } from 'lit';
import type { CSSResultOrNative, ReactiveController, ReactiveControllerHost } from 'lit';
import { markFirstScreen, markTiming } from '../internal/user-timing.js';

/**
 * Where the page keeps what was last tapped: from its first paint, a server-drawn page's early-tap script
 * (renderHostedPage names the same symbol), and the element's own listener once it runs (`adopt`). A button of the
 * server's screen tapped before the client takes over is tapped again on the client's copy of that screen.
 */
const tapKey = Symbol.for('pay-checkout.tap');
type Tapped = { [tapKey]?: Element };

export interface ServerScreenOptions {
  /** Whether the client's own screen is past loading. */
  ready(): boolean;
  /** Whether it answers a tap at once (screen-policy.ts's `answering`): the `interactive` mark waits for it. */
  answering(): boolean;
}

/**
 * The server-rendered first screen (declarative shadow DOM): drawn by the server from the link answer it hands over,
 * kept on screen until the client has its own, and marked as the first screen when the client takes over.
 */
export class ServerScreen implements ReactiveController {
  /** The server's first screen, kept until the client's first screen past loading replaces it. */
  private _nodes: ChildNode[] | undefined;
  /** Whether the server drew the first screen; unset once the first screen past loading is marked (user-timing.ts). */
  private _drawn: boolean | undefined = false;
  /** The first screen is marked, the element's answering it (`interactive`) not yet. */
  private _unmarked = false;
  /** A button tapped on the server's screen, to tap on the client's: its step and its place among the step's buttons. */
  private _replay: [string, number] | undefined;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement & { renderRoot: HTMLElement | DocumentFragment },
    private readonly options: ServerScreenOptions,
  ) {
    host.addController(this);
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
    root.addEventListener('click', this._onTap, true);
    return root;
  }

  /** Taps are the page's early-tap script's to note then (a server-drawn page has one), or nobody's. */
  hostDisconnected(): void {
    this.host.shadowRoot?.removeEventListener('click', this._onTap, true);
  }

  hostUpdate(): void {
    if (this._nodes && this.options.ready()) {
      const button = (window as Tapped)[tapKey]?.closest('button');
      const root = button?.getRootNode() as ShadowRoot | undefined;
      const step = root?.host;
      if (step && this._nodes.some((node) => node.contains(step))) this._replay = [step.localName, [...root!.querySelectorAll('button')].indexOf(button!)];
      for (const node of this._nodes) node.remove();
      this._nodes = undefined;
    }
  }

  hostUpdated(): void {
    const replay = this._replay;
    this._replay = undefined;
    if (replay) {
      const screen = this.host.renderRoot.querySelector<HTMLElement & { updateComplete: Promise<unknown> }>(`${replay[0]}[data-step]`);
      void screen?.updateComplete.then(() => screen.shadowRoot?.querySelectorAll('button')[replay[1]]?.click());
    }
    if (this._drawn !== undefined && this.options.ready()) {
      markFirstScreen(this._drawn);
      this._drawn = undefined;
      this._unmarked = true;
    }
    if (this._unmarked && this.options.answering()) {
      markTiming('interactive');
      this._unmarked = false;
    }
  }

  private readonly _onTap = (e: Event) => ((window as Tapped)[tapKey] = e.composedPath()[0] as Element);
}
