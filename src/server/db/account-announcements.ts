import { ACCOUNT_CHANGES, REVOCATIONS } from './channels.js';

/**
 * PostgreSQL: what an account's change tells the other processes, sent by
 * the database itself in the transaction that makes the change, so it is
 * delivered at that commit and never after a rollback, whoever commits (the
 * sign-in library's admin routes, sign-out, a password change, an expiry
 * sweep, our own services, an administrator at the `psql` prompt). No process
 * can commit such a change and die before telling the others.
 *
 * - a session row deleted: `REVOCATIONS` `{userId, sessionId}` (its sockets close);
 * - an account banned or removed: `REVOCATIONS` `{userId}` (every socket of it
 *   closes, every cached actor of it goes);
 * - any other change to what an actor carries (name, picture, address, its
 *   confirmation, role, an unban): `ACCOUNT_CHANGES` `{userId}` (its cached
 *   actors go).
 *
 * Run by migration 0010 and again by a restore (a restore drops the tables and
 * with them their triggers); every statement can run again.
 */
export const ACCOUNT_ANNOUNCEMENTS: readonly string[] = [
  // Checked at the commit: a session ended and opened again under its id in one transaction did not end.
  // (A password change does so in steps of their own: the listeners give it a moment, see pg-listener.ts.)
  `CREATE OR REPLACE FUNCTION tavla_session_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "session" WHERE id = OLD.id) THEN RETURN NULL; END IF;
  PERFORM pg_notify('${REVOCATIONS.name}', json_build_object('userId', OLD."userId", 'sessionId', OLD.id)::text);
  RETURN NULL;
END $$`,
  `CREATE OR REPLACE FUNCTION tavla_account_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('${REVOCATIONS.name}', json_build_object('userId', OLD.id)::text);
  ELSIF NEW.banned IS TRUE AND OLD.banned IS NOT TRUE THEN
    PERFORM pg_notify('${REVOCATIONS.name}', json_build_object('userId', NEW.id)::text);
  ELSIF (NEW.name, NEW.image, NEW.email, NEW."emailVerified", NEW.role, NEW.banned)
        IS DISTINCT FROM (OLD.name, OLD.image, OLD.email, OLD."emailVerified", OLD.role, OLD.banned) THEN
    PERFORM pg_notify('${ACCOUNT_CHANGES.name}', json_build_object('userId', NEW.id)::text);
  END IF;
  RETURN NULL;
END $$`,
  `DROP TRIGGER IF EXISTS tavla_session_ended ON "session"`,
  `CREATE CONSTRAINT TRIGGER tavla_session_ended AFTER DELETE ON "session" DEFERRABLE INITIALLY DEFERRED
   FOR EACH ROW EXECUTE FUNCTION tavla_session_ended()`,
  `DROP TRIGGER IF EXISTS tavla_account_changed ON "user"`,
  `CREATE TRIGGER tavla_account_changed AFTER UPDATE OR DELETE ON "user" FOR EACH ROW EXECUTE FUNCTION tavla_account_changed()`,
];
