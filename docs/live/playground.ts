/** The theming playground: each control sets one `--pay-*` property (or the theme) on the preview checkout. */
export function wirePlayground(playground: HTMLElement, preview: HTMLElement): void {
  playground.querySelector('.playground-preview')?.replaceChildren(preview);
  const css = playground.querySelector('output');
  const update = () => {
    const lines: string[] = [];
    for (const input of playground.querySelectorAll<HTMLInputElement>('input[data-property]')) {
      const property = input.dataset.property ?? '';
      if (input.value.trim()) {
        preview.style.setProperty(property, input.value.trim());
        lines.push(`  ${property}: ${input.value.trim()};`);
      } else {
        preview.style.removeProperty(property);
      }
    }
    const theme = playground.querySelector<HTMLInputElement>('input[name="theme"]:checked')?.value ?? 'auto';
    preview.setAttribute('theme', theme);
    if (css) css.textContent = `<pay-checkout theme="${theme}">\n\npay-checkout {\n${lines.join('\n')}\n}`;
  };
  playground.addEventListener('input', update);
  update();
}
