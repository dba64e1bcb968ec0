/**
 * User Timing marks, which merchants' real-user monitoring (web-vitals, Sentry, Datadog RUM) reads with no
 * integration: each named `pay-checkout:…`. A detail carries the gateway's kind at most, never anything of the buyer.
 */
export type TimingName = 'first-screen' | 'interactive' | 'order-created' | 'paid';

export function markTiming(name: TimingName, options?: PerformanceMarkOptions): void {
  try {
    performance.mark(`pay-checkout:${name}`, options);
  } catch {
    // An engine without User Timing level 3 (a mark's options): no marks rather than a broken checkout.
  }
}

/**
 * The first screen (now). A screen the server drew was on screen from the page's first contentful paint, before any
 * script ran: the first screen is marked then, where the engine says when. `interactive` follows once a tap on it
 * opens the next screen at once (server-screen.ts).
 */
export function markFirstScreen(serverDrawn: boolean): void {
  const painted = serverDrawn ? performance.getEntriesByName('first-contentful-paint')[0]?.startTime : undefined;
  markTiming('first-screen', painted === undefined ? undefined : { startTime: painted });
}
