/**
 * The page around the element: centred, phone first; the element themes itself (light and dark). A `<style>` in the
 * page's head, allowed by its hash (build/hosted-page-style.ts), so the first paint is laid out as it stays.
 */
// Written tight (no build step minifies a string): every byte rides in every page.
export const pageCss =
  ':root{color-scheme:light dark;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:Canvas;color:CanvasText}' +
  'body{margin:0;min-height:100vh;display:grid;grid-template-columns:minmax(0,1fr);place-items:start center}' +
  'main{width:100%;max-width:28rem;padding:clamp(.5rem,4vw,1rem);box-sizing:border-box}' +
  '@media(min-width:40rem){main{padding-top:3rem}}' +
  '.hosted-message{line-height:1.5}' +
  '.sr-only{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}';

