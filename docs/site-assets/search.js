// Offline search: pagefind's index and UI ship inside the site (dist-docs/pagefind/), so nothing leaves this origin.
const box = document.getElementById('search');
if (box) {
  const root = new URL(box.dataset.root ?? './', location.href);
  const script = document.createElement('script');
  script.src = new URL('pagefind/pagefind-ui.js', root).href;
  script.onload = () => {
    new PagefindUI({ element: '#search', bundlePath: new URL('pagefind/', root).pathname, baseUrl: root.pathname, showImages: false, resetStyles: false });
    // The UI names its field by placeholder only; give it a name that stays once text is typed.
    const name = () => box.querySelector('input')?.setAttribute('aria-label', 'Search the documentation');
    name();
    new MutationObserver(name).observe(box, { childList: true, subtree: true });
  };
  document.head.append(script);
}
