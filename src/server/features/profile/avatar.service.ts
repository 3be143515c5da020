import type { Actor } from '../../auth/actor.js';
import { nowIso } from '../../db/dialect.js';
import type { ServiceDeps } from '../../deps.js';
import { isStoredName, fileStore, type OpenedFile } from '../../files/store.js';
import { HttpError, forbidden, notFound } from '../../http/errors.js';
import { imageTypeOf, type IncomingFile } from '../attachments/attachments.service.js';
import { recordedWrite } from '../../events/write-record.js';
import { announceProfile } from './announce.js';
import * as repo from './profile.repository.js';

/** The largest profile picture. */
export const AVATAR_LIMIT_BYTES = 2 * 1024 * 1024;
/** Where a stored profile picture is served; the account's `image` holds this plus the stored name. */
export const AVATAR_PATH = '/api/data/avatar/';

const SERVED_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

/** The stored name behind an `image` address of ours, or null (no picture, or one from elsewhere). */
export function avatarName(image: string | null | undefined): string | null {
  if (!image?.startsWith(AVATAR_PATH)) return null;
  const name = image.slice(AVATAR_PATH.length);
  return isStoredName(name) ? name : null;
}

/** What a picture change did: the picture before and after, and the account's name (for the announcement). */
interface Swap {
  previous: string | null;
  image: string | null;
  name: string;
}

/**
 * Sets the account's picture to `image` (or none) in one transaction and
 * answers what it was before. The account row is locked while it changes.
 * The Idempotency-Key's record commits with it: a retry of a request whose
 * change committed gets that change back (`image` may then differ from the
 * one this attempt asked for).
 */
function swapImage(deps: ServiceDeps, actor: Actor, image: string | null): Promise<Swap> {
  const { db, dialect } = deps.database;
  return recordedWrite(db, async (trx) => {
    const row = await repo.lockPicture(trx, dialect, actor.id);
    if (!row) throw forbidden();
    await repo.setPicture(trx, actor.id, image, nowIso());
    return { previous: row.image, image, name: row.name };
  });
}

/**
 * After the commit: the previous picture's file goes, unless something still
 * refers to it (another account, an attachment or a pasted picture); then
 * every board the account is on hears of the change. Failures are logged,
 * never undo the change.
 */
async function afterChange(deps: ServiceDeps, actor: Actor, previous: string | null, name: string, image: string | null) {
  const old = avatarName(previous);
  if (old !== null && previous !== image) {
    try {
      const still = await repo.pictureInUse(deps.database.db, previous!);
      if (!still) await fileStore(deps.config).removeIfUnreferenced(deps.database.db, [old]);
    } catch (error) {
      deps.log.error({ err: error }, 'removing the previous profile picture failed');
    }
  }
  try {
    await announceProfile(deps, { id: actor.id, name, image });
  } catch (error) {
    deps.log.error({ err: error }, 'announcing the profile change failed');
  }
}

/** A deleted account's picture: its file goes unless another account or a board still refers to it. */
export async function forgetAvatar(
  deps: Pick<ServiceDeps, 'config' | 'database'>,
  image: string | null | undefined,
): Promise<void> {
  const name = avatarName(image);
  if (name === null) return;
  const still = await repo.pictureInUse(deps.database.db, image!);
  if (!still) await fileStore(deps.config).removeIfUnreferenced(deps.database.db, [name]);
}

/** Stores a new picture (PNG, JPEG, GIF or WebP, told by its first bytes) and makes it the account's. */
export async function setAvatar(deps: ServiceDeps, actor: Actor, file: IncomingFile): Promise<string> {
  const store = fileStore(deps.config);
  const saved = await store.save(file.stream, {
    limitBytes: AVATAR_LIMIT_BYTES,
    extension: (head) => {
      const type = imageTypeOf(head);
      if (!type) throw new HttpError(415, 'body: file must be a PNG, JPEG, GIF or WebP picture');
      return type.ext;
    },
  });
  const image = `${AVATAR_PATH}${saved.storedName}`;
  let change: Swap;
  try {
    change = await swapImage(deps, actor, image);
  } catch (error) {
    await store.remove([saved.storedName]);
    throw error;
  }
  // A retry whose first attempt's change committed: that picture is the answer, this attempt's copy goes.
  if (change.image !== image) await store.remove([saved.storedName]);
  await afterChange(deps, actor, change.previous, change.name, change.image);
  return change.image!;
}

/** Removes the account's picture (its initials show again). */
export async function clearAvatar(deps: ServiceDeps, actor: Actor): Promise<void> {
  const change = await swapImage(deps, actor, null);
  if (change.previous !== null) await afterChange(deps, actor, change.previous, change.name, null);
}

/**
 * A profile picture, for any signed-in account: only a file some account
 * uses as its picture, and never one that belongs to a board (an attachment
 * or a pasted picture), whatever an account's `image` says.
 */
export async function openAvatar(deps: ServiceDeps, storedName: string): Promise<{ file: OpenedFile; contentType: string }> {
  const extension = storedName.split('.')[1];
  const contentType = extension ? SERVED_TYPES[extension] : undefined;
  if (!isStoredName(storedName) || !contentType) throw notFound('Picture not found');
  const { db } = deps.database;
  const owned = await repo.pictureInUse(db, `${AVATAR_PATH}${storedName}`);
  if (!owned) throw notFound('Picture not found');
  if (await repo.isBoardFile(db, storedName)) throw notFound('Picture not found');
  const file = await fileStore(deps.config).open(storedName);
  if (!file) throw notFound('Picture not found');
  return { file, contentType };
}
