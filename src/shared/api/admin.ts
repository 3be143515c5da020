import { Type, type Static } from 'typebox';
import { NullableString } from './common.js';

/** An account as better-auth's admin plugin lists it (`GET /api/auth/admin/list-users`). */
export const AdminUser = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  image: NullableString,
  role: NullableString,
  createdAt: Type.String(),
});
export type AdminUser = Static<typeof AdminUser>;
