import type { Locale } from './messages.js';

/**
 * The hosted page's link preview (`<meta name="description">`, Open Graph) as a chat app or a search engine shows
 * it: whose link it is and what it pays for. Written on the server only, so not in the element's catalogs.
 */
export interface PreviewMessages {
  /** The page's title and heading: whom the buyer pays. */
  title: (store: string) => string;
  /** `{description} · {amount}.` with how to pay; `amount` undefined: a dynamic link, where the buyer chooses it. */
  description: (description: string, amount: string | undefined, methods: string) => string;
  paid: (description: string) => string;
  expired: (description: string) => string;
  /** The page as built (a static host, a link not drawn): no store to name. */
  neutralTitle: string;
  neutralDescription: string;
}

export const previewMessages: Record<Locale, PreviewMessages> = {
  es: {
    title: (store) => `Pago a ${store}`,
    description: (description, amount, methods) =>
      `${description} · ${amount ?? 'Tú eliges el valor'}.${methods ? ` Paga con ${methods}.` : ''}`,
    paid: (description) => `${description} · Este enlace ya fue pagado.`,
    expired: (description) => `${description} · Este enlace de pago venció.`,
    neutralTitle: 'Pago',
    neutralDescription: 'Página de pago del comercio.',
  },
  en: {
    title: (store) => `Payment to ${store}`,
    description: (description, amount, methods) =>
      `${description} · ${amount ?? 'You choose the amount'}.${methods ? ` Pay with ${methods}.` : ''}`,
    paid: (description) => `${description} · This link has been paid.`,
    expired: (description) => `${description} · This payment link has expired.`,
    neutralTitle: 'Payment',
    neutralDescription: 'The store’s payment page.',
  },
};
