/** The rare address that names no link: its words in a chunk of their own, so the page for a link never carries them. */
export function noLinkMessage(locale: 'es' | 'en'): HTMLParagraphElement {
  const message = document.createElement('p');
  message.className = 'hosted-message';
  message.textContent =
    locale === 'en' ? 'This address has no payment link. Check the link you were sent.' : 'Esta dirección no tiene un enlace de pago. Revisa el enlace que te enviaron.';
  return message;
}
