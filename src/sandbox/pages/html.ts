/** Server-rendered pages that work under a strict CSP: no inline script or style, every value escaped. */
import { escapeHtml } from '../http.js';

export const pagesCssPath = '/sandbox/assets/pages.css';

export const pagesCss = `
:root{color-scheme:light dark}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;padding:0 1rem;background:#f4f6fb;color:#111827}
main{max-width:28rem;margin:2.5rem auto;padding:1.5rem;background:#fff;border-radius:12px;box-shadow:0 2px 12px rgb(0 0 0 / 8%)}
h1{font-size:1.3rem;margin-top:0}
label{display:block;margin:.9rem 0 .3rem;font-weight:600}
input{width:100%;box-sizing:border-box;padding:.6rem;font-size:1rem;border:1px solid #9ca3af;border-radius:8px;background:inherit;color:inherit}
button{margin-top:1.2rem;width:100%;padding:.7rem;font-size:1rem;border:0;border-radius:8px;background:#1d4ed8;color:#fff;cursor:pointer}
.error{color:#b91c1c;font-weight:600}.muted{color:#4b5563;font-size:.9rem;line-height:1.9}
code{background:#eef2ff;padding:.1rem .3rem;border-radius:4px;white-space:nowrap}
dl{display:grid;grid-template-columns:auto 1fr;gap:.3rem 1rem}dt{font-weight:600}
@media (max-width:30rem){body{padding:0}main{margin:0;border-radius:0;box-shadow:none;min-height:100vh;box-sizing:border-box}}
@media (prefers-color-scheme:dark){body{background:#0b1120;color:#e5e7eb}main{background:#111827;box-shadow:none}
.error{color:#fca5a5}.muted{color:#9ca3af}code{background:#1e293b}button{background:#2563eb}}
`.trim();

/** Content-Security-Policy of every sandbox page; `formTargets` are origins a form may end up at after a redirect. */
export function pageCsp(formTargets: string[] = []): string {
  return [
    "default-src 'none'",
    "style-src 'self'",
    "img-src 'self' data:",
    `form-action 'self'${formTargets.map((o) => ` ${o}`).join('')}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** `body` is already-escaped HTML built with `html` below. */
export function page(title: string, body: string, lang = 'es'): string {
  return `<!doctype html><html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><link rel="stylesheet" href="${pagesCssPath}"></head><body><main>${body}</main></body></html>`;
}

/** Tagged template that escapes every interpolated value unless it is already `SafeHtml`. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString() {
    return this.value;
  }
}
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    const text = Array.isArray(value) ? value.map((v) => (v instanceof SafeHtml ? v.value : escapeHtml(v))).join('') : value instanceof SafeHtml ? value.value : escapeHtml(value ?? '');
    out += text + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

export const formatCop = (amount: number, currency: string) =>
  new Intl.NumberFormat('es-CO', { style: 'currency', currency, maximumFractionDigits: currency === 'COP' ? 0 : 2 }).format(amount);
