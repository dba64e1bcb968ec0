/** Small gateway icons served by the sandbox itself, so nothing loads from the internet. */
const icon = (fill: string, label: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64" role="img" aria-label="${label}"><rect width="64" height="64" rx="14" fill="${fill}"/><text x="32" y="41" font-family="Arial,Helvetica,sans-serif" font-size="26" font-weight="700" text-anchor="middle" fill="#fff">${label.slice(0, 1)}</text></svg>`;

export const gatewayIcons: Record<string, string> = {
  'nequi.svg': icon('#200020', 'Nequi'),
  'daviplata.svg': icon('#e4002b', 'Daviplata'),
  'breb.svg': icon('#0b5fff', 'Bre-B'),
  'card.svg': icon('#334155', 'Tarjeta'),
};
