import { sql, type Kysely } from 'kysely';

/**
 * The board version from which a viewer may replay events: a member's from
 * when they were added, anyone's on a public board from when it became public.
 * Existing rows start at the board's current version, as nothing older can
 * be told apart.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('board_members')
    .addColumn('readableFrom', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('boards')
    .addColumn('publicFrom', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update board_members set "readableFrom" = (select version from boards where boards.id = board_members."boardId")`.execute(
    db,
  );
  await sql`update boards set "publicFrom" = version where status = 'public'`.execute(db);
}
