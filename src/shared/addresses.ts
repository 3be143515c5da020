/**
 * Which addresses user-written content may point at. A browser showing a board
 * fetches every image by itself, with the viewer's session, so an image (a
 * board cover, a Markdown picture) that pointed at this instance's API would
 * run that request for everyone who looks; a link would for everyone who clicks.
 * Outside http(s) addresses are fine; on the instance only its own uploaded
 * pictures may be shown, and links may go anywhere in the web app but not
 * into the API.
 */

/** Pasted pictures and board covers (`/api/data/image/…`) and profile pictures (`/api/data/avatar/…`), as stored. */
const OWN_PICTURE = /^\/api\/data\/(?:image|avatar)\/[0-9a-f]{32}(?:\.[a-z0-9]{1,10})?$/;

/**
 * The characters an address may hold unencoded (RFC 3986, plus `%` escapes).
 * No whitespace, control characters, backslashes or quotes, which browsers
 * drop, turn into `/` or use to break out of an attribute or a CSS `url("…")`.
 * markdown-it hands over addresses already percent-encoded, so only a raw
 * address written by hand can fail here.
 */
const URL_CHARS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;

/** Where addresses without a host are resolved, to read their path the way a browser would. */
const SOMEWHERE = 'http://instance.invalid';

/** `http://host…` or `https://host…` with a host, parsed; null for anything else (`http:/x`, `//host`, other schemes). */
function httpAddress(url: string): URL | null {
  if (!/^https?:\/\//i.test(url)) return null;
  try {
    const parsed = new URL(url);
    return parsed.hostname === '' ? null : parsed;
  } catch {
    return null;
  }
}

/** The host of `origin` (the instance's base address), or null when it is unknown or unreadable. */
function hostOf(origin: string | undefined): string | null {
  if (!origin) return null;
  try {
    return new URL(origin).hostname;
  } catch {
    return null;
  }
}

/** Whether the request goes to the instance: by host only, as http and https of one host share their cookies. */
function onInstance(url: URL, origin: string | undefined): boolean {
  return url.hostname === hostOf(origin);
}

/** Whether a path on the instance reaches its API once the server has decoded it. */
function reachesApi(pathname: string): boolean {
  let path = pathname;
  for (let i = 0; i < 5; i++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return true; // an escape no server would decode the same way: not worth the guess
    }
    if (decoded === path) break;
    path = decoded;
  }
  path = path.toLowerCase();
  return path === '/api' || path.startsWith('/api/');
}

/** `/x…` but not `//host…`: a path from the root of the instance. */
function isRootPath(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//');
}

/**
 * Whether `url` may be shown as an image (`src`, a board cover): an http(s)
 * address elsewhere, or one of the instance's own uploaded pictures, by path
 * or by full address when `origin` (the instance's base address) is known.
 */
export function isSafeImage(url: string, origin?: string): boolean {
  if (!URL_CHARS.test(url)) return false;
  if (OWN_PICTURE.test(url)) return true;
  const absolute = httpAddress(url);
  if (!absolute) return false;
  return !onInstance(absolute, origin) || OWN_PICTURE.test(absolute.pathname);
}

/**
 * Whether `url` may become a link (`href`): an http(s) address, `mailto:`, a
 * place on the page (`#…`), or a path of the web app; the instance's API only
 * for its own pictures, by path or (when `origin` is known) by full address.
 */
export function isSafeLink(url: string, origin?: string): boolean {
  if (!URL_CHARS.test(url)) return false;
  if (url.startsWith('#') || /^mailto:/i.test(url)) return true;
  const absolute = isRootPath(url) ? new URL(url, SOMEWHERE) : httpAddress(url);
  if (!absolute) return false;
  if (isRootPath(url) || onInstance(absolute, origin)) {
    return OWN_PICTURE.test(absolute.pathname) || !reachesApi(absolute.pathname);
  }
  return true;
}
