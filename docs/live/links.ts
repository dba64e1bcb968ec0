/** The live examples' payment links: one per method, so each example pays once on its own. */
export const liveLinks = [
  { hash: 'live-nequi', method: 'Nequi', description: 'Ejemplo en vivo: Nequi' },
  { hash: 'live-daviplata', method: 'Daviplata', description: 'Ejemplo en vivo: Daviplata' },
  { hash: 'live-breb', method: 'Bre-B', description: 'Ejemplo en vivo: Bre-B' },
  { hash: 'live-card', method: 'card', description: 'Ejemplo en vivo: tarjeta' },
] as const;
