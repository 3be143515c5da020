// The API's shapes, from the schemas the server validates and answers with (src/shared/api); none is declared here.
export type { ActivityEntry } from '../../shared/api/activity.js';
export type { AdminUser } from '../../shared/api/admin.js';
export type { ApiKey, ApiKeyCreated } from '../../shared/api/api-keys.js';
export type { Area } from '../../shared/api/areas.js';
export type { ArchivedArea, ArchivedBoard, ArchivedCard, BoardArchive } from '../../shared/api/archive.js';
export type { Attachment, UploadedImage } from '../../shared/api/attachments.js';
export type { Board, BoardStatus, BoardStyle, BoardWithAccess } from '../../shared/api/boards.js';
export type { BoardImportResult, ImportReport } from '../../shared/api/board-import.js';
export type { Card, CardListItem, CardUpdate, Label, Person } from '../../shared/api/cards.js';
export type { Comment } from '../../shared/api/comments.js';
export type { Session, SessionUser, SignInOptions, SsoRoute } from '../../shared/api/session.js';
export type { CardFields, Field, FieldType, FieldValue } from '../../shared/api/fields.js';
export type { InvitationInfo, InviteList, Member, PendingInvite, Permission } from '../../shared/api/sharing.js';
export type { Webhook, WebhookDelivery, WebhookWithSecret } from '../../shared/api/webhooks.js';
export type { Rhythm as RepeatEvery } from '../../shared/repeat.js';
