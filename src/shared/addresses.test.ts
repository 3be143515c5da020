import { describe, expect, it } from 'vitest';
import { isSafeImage, isSafeLink } from './addresses.js';

const ORIGIN = 'https://tavla.example';
const PICTURE = '/api/data/image/0123456789abcdef0123456789abcdef.png';
const AVATAR = '/api/data/avatar/0123456789abcdef0123456789abcdef';

/** Tricks that must never pass as a link or an image, whether or not the instance's address is known. */
const NEVER = [
  '',
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  '\u0000javascript:alert(1)',
  'vbscript:x',
  'data:text/html,x',
  'data:image/png;base64,AAAA',
  'file:///etc/passwd',
  'ftp://example.org',
  'page.html',
  '?q=1',
  '../api/data/export',
  'api/data/export',
  '/api/data/export?boardId=1',
  '/api/auth/sign-out',
  '/api',
  '/API/data/export',
  '/Api/Data/Export',
  '/%61pi/data/export',
  '/%2561pi/data/export',
  '/api%2Fdata/export',
  '/%2e/api/data/export',
  '/./api/data/export',
  '/x/../api/data/export',
  `${PICTURE}/../../export`,
  '/api/data/attachment?id=1',
  '/api/docs',
  '/api/health',
  '/api/invitations/abc/accept',
  '//tavla.example/api/data/export',
  '//example.org/x',
  '/\\tavla.example/api/data/export',
  '\\\\tavla.example\\api',
  '/ api/data/export',
  '/api/data/export ',
  '/api/data/export\n',
  'http:/api/data/export',
  'https:api/data/export',
  'http:\\\\tavla.example\\api\\data\\export',
  'https://',
  'https:///',
  'https://tavla.example/api/data/export',
  'HTTPS://TAVLA.EXAMPLE/api/data/export',
  'http://tavla.example:8080/api/data/export',
  'https://tavla.example/%61pi/data/export',
  'https://user@tavla.example/api/data/export',
  'https://x.org/a"),url("/api/data/export',
  'https://x.org/a\\"),url(/api/data/export',
  'https://x.org/a b',
  'https://x.org/\u200b',
  'https://x.org/<script>',
];

describe('isSafeLink and isSafeImage', () => {
  it.each(NEVER.map((url) => [JSON.stringify(url), url]))('refuse %s', (_, url) => {
    for (const origin of [undefined, ORIGIN]) {
      // Without the instance's address a full address of it is just an http(s) address.
      if (origin === undefined && /^https?:\/\/[^/]*tavla/i.test(url)) continue;
      expect([origin, isSafeLink(url, origin), isSafeImage(url, origin)]).toEqual([origin, false, false]);
    }
  });

  it.each([
    'http://example.org',
    'https://example.org/a?b=c#d',
    'HTTPS://EXAMPLE.ORG/x.png',
    'https://example.org/api/data/export',
    'https://en.wikipedia.org/wiki/Kanban_(development)',
    'https://example.org/%E2%9C%93.png',
    PICTURE,
    AVATAR,
    `${ORIGIN}${PICTURE}`,
    `http://tavla.example${AVATAR}`,
  ])('allow %s as both', (url) => {
    expect(isSafeLink(url, ORIGIN)).toBe(true);
    expect(isSafeImage(url, ORIGIN)).toBe(true);
  });

  it.each(['mailto:someone@example.org', '#section', '/board/1', '/board/1/archive?x=1#y', `${ORIGIN}/board/1`, '/apis'])(
    'allow %s as a link only',
    (url) => {
      expect(isSafeLink(url, ORIGIN)).toBe(true);
      expect(isSafeImage(url, ORIGIN)).toBe(false);
    },
  );

  it('refuses a picture path with anything but a stored name', () => {
    for (const url of [
      '/api/data/image/abc.png',
      '/api/data/image/',
      `${PICTURE}x/`,
      '/api/data/image/0123456789ABCDEF0123456789ABCDEF',
    ]) {
      expect([url, isSafeImage(url, ORIGIN)]).toEqual([url, false]);
    }
  });
});
