/** How the demo's parts report up: a message for the page's live region, or "the orders changed, reload". */
export interface DemoAnnounceDetail {
  message: string;
}

export function announce(from: HTMLElement, message: string): void {
  from.dispatchEvent(new CustomEvent<DemoAnnounceDetail>('demo-announce', { detail: { message }, bubbles: true, composed: true }));
}

export function ordersChanged(from: HTMLElement): void {
  from.dispatchEvent(new CustomEvent('demo-orders-changed', { bubbles: true, composed: true }));
}

declare global {
  interface HTMLElementEventMap {
    'demo-announce': CustomEvent<DemoAnnounceDetail>;
    'demo-orders-changed': CustomEvent<void>;
  }
}
