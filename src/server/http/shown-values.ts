/**
 * What `pay-checkout serve` may print of an operator's value: one redactor for every value a message echoes (a
 * setting's error, a `--check` line, a `links_app_failed` event). A URL's user info and query go, with or without
 * `//` (`u:PASS@shop/notify`, `default:PASS@127.0.0.1:6379`), and so does a libpq `password=`: a token rides in
 * any of them. What is left still says which host and path was meant.
 */

/** A query (and fragment) of a URL-like word: `?` followed by anything up to a space or a quote. */
const query = /(?<=[^\s"'<>])[?#][^\s"'<>]+/g;
/** User info after `scheme://`: everything up to the last `@` of the word. */
const afterSlashes = /(\/\/)[^\s"'<>]*@/g;
/** User info without `//`: `name:secret@` at the start of a word. */
const bare = /(^|[\s"'(=,])[^\s"'<>/:@]+:(?!\/\/)[^\s"'<>]*@/g;
/** A libpq key=value password (`password=…`, `sslpassword=…`), quoted or not. */
const libpqPassword = /\b((?:ssl)?password)\s*=\s*(?:'(?:[^'\\]|\\.)*'|[^\s'&]+)/gi;

/** `value` (a setting, or a sentence that quotes one) with every user info, query and password left out. */
export function shown(value: string): string {
  return value
    .replace(libpqPassword, '$1=…')
    .replace(query, (match) => `${match[0]}…`)
    .replace(afterSlashes, '$1…@')
    .replace(bare, '$1…@');
}

/**
 * A URL's credentials as an `Authorization: Basic` header, and the URL without them: `fetch()` refuses a URL with
 * credentials in it, and an app behind HTTP basic auth gets them as the header instead.
 */
export function withoutCredentials(value: string | URL): { url: URL; authorization: string | undefined } {
  const url = new URL(value);
  if (!url.username && !url.password) return { url, authorization: undefined };
  const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  const authorization = `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(pair)))}`;
  url.username = '';
  url.password = '';
  return { url, authorization };
}
