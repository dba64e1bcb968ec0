/** `relative` (URL-decoded, from the site's root) in `root`: its bytes and type, or null outside root or missing. */
export function siteFile(root: string, relative: string): Promise<{ body: Buffer; type: string } | null>;
