import type { Db } from '../db/database.js';
import { hotQuery } from '../db/hot-query.js';

/** The account behind an API key hash: built once, run on every API request. */
export const keyOwner = hotQuery((db: Db, keyHash: string) =>
  db
    .selectFrom('apikey')
    .innerJoin('user', 'user.id', 'apikey.userId')
    .select([
      'user.id',
      'user.name',
      'user.image',
      'user.role',
      'user.banned',
      'user.emailVerified',
      'apikey.readOnly',
      'apikey.id as keyId',
    ])
    .where('apikey.keyHash', '=', keyHash),
);

export const liveSession = hotQuery((db: Db, id: string) => db.selectFrom('session').select('expiresAt').where('id', '=', id));

export const liveKey = hotQuery((db: Db, id: string) =>
  db.selectFrom('apikey').innerJoin('user', 'user.id', 'apikey.userId').select('user.banned').where('apikey.id', '=', id),
);
