import { Type, type Static } from 'typebox';
import { Id, NullableString } from './common.js';

export const Permission = Type.Enum(['read', 'edit'], { description: '`read` or `edit`' });
export type Permission = Static<typeof Permission>;

/** An account with access to a board besides its owner; never with an e-mail address. */
export const Member = Type.Object({
  id: Type.String({ description: 'account id' }),
  name: Type.String(),
  image: NullableString,
  permission: Permission,
});
export type Member = Static<typeof Member>;

/** An invitation sent to an address that has no account yet; only its owner ever sees it. */
export const PendingInvite = Type.Object({
  mail: Type.String({ description: 'the invited address, lower case' }),
  permission: Permission,
  createdAt: Type.String({ description: 'ISO 8601 UTC' }),
});
export type PendingInvite = Static<typeof PendingInvite>;

export const InviteList = Type.Object({
  members: Type.Array(Member, { description: 'in the order they were added' }),
  pending: Type.Array(PendingInvite, { description: 'live invitations to addresses without an account, oldest first' }),
});
export type InviteList = Static<typeof InviteList>;

const UserId = Type.String({ minLength: 1, maxLength: 255, description: 'an existing account id' });
const Mail = Type.String({ maxLength: 320, description: 'an e-mail address (trimmed, compared in lower case)' });

export const InviteWrite = Type.Object({
  boardId: Id,
  userId: Type.Optional(UserId),
  mail: Type.Optional(Mail),
  permission: Permission,
});
export type InviteWrite = Static<typeof InviteWrite>;

export const InviteRemove = Type.Object({
  boardId: Id,
  userId: Type.Optional(UserId),
  mail: Type.Optional(Mail),
});
export type InviteRemove = Static<typeof InviteRemove>;

/** What an invitation link is for (`GET /api/invitations/:token`), shown before an account exists. */
export const InvitationInfo = Type.Object({ email: Type.String(), boardName: Type.String(), permission: Type.String() });
export type InvitationInfo = Static<typeof InvitationInfo>;
