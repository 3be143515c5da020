import { expect, it } from 'vitest';
import { BASE_URL, eachDialect } from '../../../../test/harness.js';

const OWN = '/api/data/avatar/0123456789abcdef0123456789abcdef.png';
const REFUSED = [
  '/api/data/export?boardId=1',
  '/api/auth/sign-out',
  '/%61pi/data/export',
  `${BASE_URL}/api/data/export`,
  '//localhost:3000/api/data/export',
  'http:/api/data/export',
  'javascript:alert(1)',
  ' https://example.org/me.png',
];

eachDialect('profile picture addresses', (t) => {
  const users = () => t.db.selectFrom('user').select(['id', 'email', 'image', 'updatedAt']).orderBy('id').execute();
  const update = (cookie: string, image: string) =>
    t.inject({ cookie }, { method: 'POST', url: '/api/auth/update-user', headers: { origin: BASE_URL }, payload: { image } });

  it.each(REFUSED)('refuses the picture %j on update (400), changing nothing', async (image) => {
    const user = await t.signUp();
    const before = await users();
    const res = await update(user.cookie, image);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('image');
    expect(await users()).toEqual(before);
  });

  it.each(REFUSED)('refuses the picture %j at sign-up (400), creating no account', async (image) => {
    const before = await users();
    const res = await t.inject(null, {
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { origin: BASE_URL },
      payload: { name: 'Pic', email: `pic-${Date.now()}@example.test`, password: 'correct horse battery', image },
    });
    expect(res.statusCode).toBe(400);
    expect(await users()).toEqual(before);
  });

  it.each([OWN, `${BASE_URL}${OWN}`, 'https://example.org/me.png'])('takes the picture %j', async (image) => {
    const user = await t.signUp();
    expect((await update(user.cookie, image)).statusCode).toBe(200);
    const row = await t.db.selectFrom('user').select('image').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.image).toBe(image);
  });
});
