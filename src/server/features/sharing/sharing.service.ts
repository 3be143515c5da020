import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Config } from '../../config.js';
import { enqueue } from '../../jobs/runner.js';
import { invitationMail } from '../../mail/templates.js';
import type { InviteList, InviteRemove, InviteWrite, Member, Permission } from '../../../shared/api/sharing.js';
import { findAccountById, findAccountByMail, type Account } from '../../auth/accounts.repository.js';
import type { Actor } from '../../auth/actor.js';
import { requireBoard } from '../../access/index.js';
import { nowIso, toIso } from '../../db/dialect.js';
import type { Deps, ServiceDeps } from '../../deps.js';
import { writeBoard, type WriteScope } from '../../events/board-write.js';
import { badRequest, notFound } from '../../http/errors.js';
import { loadCard } from '../cards/cards.service.js';
import { findCard } from '../cards/cards.repository.js';
import { limitInvitations } from './invite-limits.js';
import * as repo from './sharing.repository.js';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** How long an invitation link stays valid. */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

// Deliberately loose: one @, something on both sides, a dot in the domain, no spaces.
const MAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function presentMember(row: repo.MemberRow): Member {
  return { id: row.id, name: row.name, image: row.image, permission: row.permission as Permission };
}

/** The one of `userId` and `mail` the caller gave, the address trimmed and in lower case. */
function invitee(part: 'body' | 'query', input: { userId?: string; mail?: string }): { userId: string } | { mail: string } {
  if ((input.userId === undefined) === (input.mail === undefined)) {
    throw badRequest(`${part}: give exactly one of userId and mail`);
  }
  if (input.userId !== undefined) return { userId: input.userId };
  const mail = input.mail!.trim().toLowerCase();
  if (!MAIL.test(mail)) throw badRequest(`${part}: mail must be an e-mail address`);
  return { mail };
}

/** Members and live invitations of a board; owner only. */
export async function listInvites(deps: ServiceDeps, actor: Actor, boardId: number): Promise<InviteList> {
  const { db } = deps.database;
  await requireBoard(db, actor, boardId, 'owner');
  const [members, pending] = await Promise.all([repo.listMembers(db, boardId), repo.listLiveInvites(db, boardId, nowIso())]);
  return {
    members: members.map(presentMember),
    pending: pending.map((row) => ({
      mail: row.email,
      permission: row.permission as Permission,
      createdAt: toIso(row.createdAt),
    })),
  };
}

/**
 * Gives an account access to a board (or changes its permission), or invites
 * an address that has no account yet (or no verified one). The answer is the
 * same either way, so it tells nothing about which addresses have accounts.
 */
export async function invite(deps: ServiceDeps & Pick<Deps, 'limits'>, actor: Actor, input: InviteWrite): Promise<void> {
  const who = invitee('body', input);
  await writeBoard(deps, actor, input.boardId, 'owner', async (scope) => {
    const { trx } = scope;
    if ('mail' in who) await limitInvitations(trx, deps.limits, actor.id, who.mail);
    const account = 'userId' in who ? await findAccountById(trx, who.userId) : await findAccountByMail(trx, who.mail);
    // Only the owner invites, so the owner is the caller.
    if (account?.id === scope.board.ownerId) throw badRequest('You cannot invite yourself');
    // An address nobody has proven to receive mail at is no one's yet: it gets the link,
    // which only works signed in to that address, like an address without an account.
    if (account && ('userId' in who || account.emailVerified)) return grant(scope, deps, account, input.permission);
    if ('userId' in who) throw badRequest('body: userId is not an account');
    return inviteByMail(scope, deps.config, who.mail, input.permission);
  });
}

/** Makes the account a member with this permission; the owner hears nothing when nothing changes. */
async function grant(scope: WriteScope, deps: ServiceDeps, account: Account, permission: Permission): Promise<void> {
  const { trx, board, emit } = scope;
  // Someone with access needs no invitation link any more.
  await repo.deleteUnusedInvite(trx, board.id, account.email.toLowerCase());
  const existing = await repo.findMember(trx, board.id, account.id);
  if (existing?.permission === permission) return;
  if (existing) await repo.setPermission(trx, board.id, account.id, permission);
  else await repo.addMember(trx, board, account.id, permission, nowIso());
  const member = presentMember({ id: account.id, name: account.name, image: account.image, permission });
  emit(existing ? 'member.updated' : 'member.added', { member });
  if (!existing) scope.tell('member.granted', { userId: account.id });
}

/**
 * A live invitation for an address with no account: a new secret link each
 * time (only its hash is kept), valid for seven days. Nothing goes to viewers:
 * the address is for the owner's eyes only.
 */
async function inviteByMail(
  { trx, board, actor }: WriteScope,
  config: Config,
  mail: string,
  permission: Permission,
): Promise<void> {
  const now = nowIso();
  // The token leaves only in the mail; the database keeps its hash.
  const token = randomBytes(32).toString('hex');
  const link = `${config.baseUrl}/invite/${token}`;
  const days = INVITE_TTL_MS / 86_400_000;
  // Queued in this transaction and sent by the job runner: the answer does not wait for a mail server.
  await enqueue(
    trx,
    'mail',
    `mail:${randomUUID()}`,
    { ...invitationMail(config.language, mail, { actor: actor.name, board: board.name, link, days }) },
    new Date(),
  );
  const values = {
    permission,
    tokenHash: hashToken(token),
    invitedBy: actor.id,
    expiresAt: new Date(Date.parse(now) + INVITE_TTL_MS).toISOString(),
  };
  const existing = await repo.findInvite(trx, board.id, mail);
  if (!existing) return repo.insertInvite(trx, board.id, mail, values, now);
  // A live invitation keeps its date; a used or expired one starts afresh.
  const live = existing.usedAt === null && toIso(existing.expiresAt) > now;
  await repo.renewInvite(trx, existing.id, live ? values : { ...values, createdAt: now });
}

/** Takes an account's access away at once (`userId`), or cancels a live invitation (`mail`); owner only. */
export async function removeInvite(deps: ServiceDeps, actor: Actor, input: InviteRemove): Promise<void> {
  const who = invitee('query', input);
  await writeBoard(deps, actor, input.boardId, 'owner', async (scope) => {
    if ('mail' in who) {
      if (!(await repo.deleteUnusedInvite(scope.trx, scope.board.id, who.mail, nowIso()))) {
        throw notFound('No pending invitation for this address');
      }
      return;
    }
    // The same answer for an account that is not a member and for an id that is no account at all,
    // so the route cannot be used to tell which ids exist.
    await dropMember(scope, who.userId);
  });
}

/** A member gives up their own access; the owner cannot. */
export async function leaveBoard(deps: ServiceDeps, actor: Actor, boardId: number): Promise<void> {
  await writeBoard(deps, actor, boardId, 'read', async (scope) => {
    if (scope.board.ownerId === actor.id) throw badRequest('OWNER_CANNOT_LEAVE');
    if (!(await dropMember(scope, actor.id))) throw notFound('Member not found');
  });
}

/**
 * Removes the membership and the account's place on the board's cards (assignees must have access).
 * False, with nothing changed, when the account is not a member.
 */
async function dropMember({ trx, board, emit }: WriteScope, userId: string): Promise<boolean> {
  const member = await repo.findMember(trx, board.id, userId);
  if (!member) return false;
  await repo.removeMember(trx, board.id, userId);
  const cardIds = await repo.removeAssignments(trx, board.id, userId);
  emit('member.removed', { userId });
  for (const cardId of cardIds) {
    const row = await findCard(trx, cardId);
    if (!row) throw new Error(`card ${cardId} of an assignment just removed is missing`);
    emit('card.updated', { card: await loadCard(trx, row) });
  }
  return true;
}

/**
 * Everyone on a board, for anyone who can read it (assignee pickers,
 * avatars): the owner first, then the members in the order they joined.
 * Names and pictures only, never an address.
 */
export async function boardPeople(
  deps: ServiceDeps,
  actor: Actor,
  boardId: number,
): Promise<Array<Member | (Omit<Member, 'permission'> & { permission: 'owner' })>> {
  const { db } = deps.database;
  const { board } = await requireBoard(db, actor, boardId, 'read');
  const owner = await findAccountById(db, board.ownerId);
  const members = (await repo.listMembers(db, boardId)).map(presentMember);
  return owner ? [{ id: owner.id, name: owner.name, image: owner.image, permission: 'owner' as const }, ...members] : members;
}
