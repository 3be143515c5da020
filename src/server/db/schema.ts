import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** PostgreSQL hands back Date objects, SQLite the ISO strings we wrote; writes are always ISO strings. */
export type Timestamp = ColumnType<Date | string, string, string>;
export type NullableTimestamp = ColumnType<Date | string | null, string | null, string | null>;
/** better-auth writes booleans as 0/1 on SQLite and as booleans on PostgreSQL. */
export type Flag = ColumnType<boolean | number, boolean | number, boolean | number>;

// better-auth's tables: names and columns are the ones it expects.
export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: Flag;
  image: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  role: string | null;
  banned: Flag | null;
  banReason: string | null;
  banExpires: NullableTimestamp;
  type: Generated<string>;
  language: string | null;
  emailNotifications: Generated<Flag>;
}

export interface SessionTable {
  id: string;
  expiresAt: Timestamp;
  token: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  ipAddress: string | null;
  userAgent: string | null;
  userId: string;
  impersonatedBy: string | null;
}

export interface AccountTable {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: NullableTimestamp;
  refreshTokenExpiresAt: NullableTimestamp;
  scope: string | null;
  password: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface VerificationTable {
  id: string;
  identifier: string;
  value: string;
  expiresAt: Timestamp;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface RateLimitTable {
  id: string;
  key: string;
  count: number;
  lastRequest: number;
}

// Tavla's own tables.
export interface ApiKeyTable {
  id: string;
  userId: string;
  name: string;
  /** The first characters of the secret, to tell keys apart in a list. */
  start: string;
  /** SHA-256 hex of the secret; the secret itself is never stored. */
  keyHash: string;
  readOnly: number;
  createdAt: Timestamp;
  lastUsedAt: NullableTimestamp;
}

export interface BoardTable {
  id: Generated<number>;
  ownerId: string;
  name: string;
  style: string;
  status: string;
  image: string | null;
  color: string | null;
  /** Rises by one with every change to the board; realtime viewers resume from it. */
  version: Generated<number>;
  /** The version at which the board last became public: non-members replay events from there. */
  publicFrom: Generated<number>;
  archivedAt: NullableTimestamp;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface BoardMemberTable {
  id: Generated<number>;
  boardId: number;
  userId: string;
  permission: string;
  /** The board's version when the member was added: they replay events from there. */
  readableFrom: Generated<number>;
  createdAt: Timestamp;
}

export interface BoardEventTable {
  id: Generated<number>;
  boardId: number;
  version: number;
  name: string;
  /** JSON text: the data a viewer needs to apply the change. */
  data: string;
  actorId: string | null;
  createdAt: Timestamp;
}

export interface BoardSnapshotTable {
  id: Generated<number>;
  boardId: number;
  version: number;
  /** JSON text: the board's visible state at `version` (realtime/board-state.ts). */
  state: string;
  createdAt: Timestamp;
}

export interface AreaTable {
  id: Generated<number>;
  boardId: number;
  name: string;
  /** Place among all the board's areas, archived ones included (0..n-1). */
  sort: number;
  archivedAt: NullableTimestamp;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  /** Soft cap on the area's visible cards (1–999), or none. */
  wipLimit: Generated<number | null>;
}

export interface CardTable {
  id: Generated<number>;
  areaId: number;
  boardId: number;
  name: string;
  content: Generated<string>;
  status: Generated<number>;
  /** Place among all the area's cards, archived ones included (0..n-1). */
  sort: number;
  dueDate: NullableTimestamp;
  repeatEvery: string | null;
  repeatAnchor: NullableTimestamp;
  repeatAreaId: number | null;
  archivedAt: NullableTimestamp;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface LabelTable {
  id: Generated<number>;
  boardId: number;
  name: string;
  nameKey: string;
  createdAt: Timestamp;
}

export interface CardLabelTable {
  cardId: number;
  labelId: number;
}

export interface CustomFieldTable {
  id: Generated<number>;
  boardId: number;
  name: string;
  nameKey: string;
  type: string;
  /** JSON array of option names (select fields), else null. */
  options: string | null;
  /** 0 or 1. */
  showOnCard: number;
  sort: number;
  createdAt: Timestamp;
}

export interface CardFieldValueTable {
  cardId: number;
  fieldId: number;
  /** The value as JSON. */
  value: string;
}

export interface CardAssigneeTable {
  id: Generated<number>;
  cardId: number;
  userId: string;
  createdAt: Timestamp;
}

export interface CardReminderTable {
  id: Generated<number>;
  cardId: number;
  minutesBefore: number;
  /** The due date this reminder last fired for; a new due date re-arms it. */
  firedFor: NullableTimestamp;
}

export interface BoardInviteTable {
  id: Generated<number>;
  boardId: number;
  email: string;
  permission: string;
  tokenHash: string;
  invitedBy: string | null;
  expiresAt: Timestamp;
  usedAt: NullableTimestamp;
  createdAt: Timestamp;
}

export interface CommentTable {
  id: Generated<number>;
  cardId: number;
  userId: string | null;
  authorName: string | null;
  content: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface AttachmentTable {
  id: Generated<number>;
  cardId: number;
  filename: string;
  filetype: string;
  filesize: number;
  storedName: string | null;
  url: string | null;
  userId: string | null;
  createdAt: Timestamp;
}

export interface ImageTable {
  id: Generated<number>;
  boardId: number;
  storedName: string;
  filetype: string;
  filesize: number;
  userId: string | null;
  createdAt: Timestamp;
}

export interface CardActivityTable {
  id: Generated<number>;
  cardId: number;
  actorId: string | null;
  type: string;
  /** JSON text, or null for kinds without detail. */
  data: string | null;
  createdAt: Timestamp;
}

export interface NotificationTable {
  id: Generated<number>;
  userId: string;
  type: string;
  boardId: number | null;
  cardId: number | null;
  /** The type's parameters as JSON (i18n/notifications.ts); null on rows from before they were kept. */
  params: string | null;
  /** The text in the instance language when it was written: shown where the parameters cannot be read. */
  message: string;
  isRead: Generated<number>;
  actorId: string | null;
  createdAt: Timestamp;
  emailedAt: NullableTimestamp;
}

export interface JobTable {
  id: Generated<number>;
  kind: string;
  key: string;
  payload: Generated<string>;
  runAt: Timestamp;
  lockedUntil: NullableTimestamp;
  attempts: Generated<number>;
  lastError: string | null;
  doneAt: NullableTimestamp;
  createdAt: Timestamp;
  /** Jobs of one lane run one at a time (jobs/jobs.repository.ts); null for none. */
  lane: string | null;
}

export interface AccountMailTable {
  userId: string;
  lastDigestAt: NullableTimestamp;
}

/** Failed sign-ins to an address from one client address since its last success there; see limits/signin-lockout.ts. */
export interface SignInFailureTable {
  email: string;
  /** The client address's key (IPv6 by /64), see limits/client-key.ts. */
  client: string;
  failures: number;
  lastAttemptAt: Timestamp;
  lockedUntil: NullableTimestamp;
}

/** Fixed windows counted in the database (invitations, failed sign-ins per address), keyed `<kind>:<key>`; see limits/. */
export interface InviteLimitTable {
  key: string;
  count: number;
  windowStart: Timestamp;
}

/** A board's public read-only link; the token itself is shown once and never stored. */
export interface PublicLinkTable {
  boardId: number;
  tokenHash: string;
  createdBy: string | null;
  createdAt: Timestamp;
}

export interface Schema {
  user: UserTable;
  session: SessionTable;
  account: AccountTable;
  verification: VerificationTable;
  rateLimit: RateLimitTable;
  apikey: ApiKeyTable;
  boards: BoardTable;
  board_members: BoardMemberTable;
  board_events: BoardEventTable;
  board_snapshots: BoardSnapshotTable;
  areas: AreaTable;
  cards: CardTable;
  labels: LabelTable;
  card_labels: CardLabelTable;
  custom_fields: CustomFieldTable;
  card_field_values: CardFieldValueTable;
  card_assignees: CardAssigneeTable;
  card_reminders: CardReminderTable;
  board_invites: BoardInviteTable;
  comments: CommentTable;
  attachments: AttachmentTable;
  images: ImageTable;
  card_activity: CardActivityTable;
  notifications: NotificationTable;
  jobs: JobTable;
  account_mail: AccountMailTable;
  signin_failures: SignInFailureTable;
  invite_limits: InviteLimitTable;
  idempotency_keys: IdempotencyKeyTable;
  idempotency_writes: IdempotencyWriteTable;
  webhooks: WebhookTable;
  webhook_deliveries: WebhookDeliveryTable;
  templates: TemplateTable;
  public_links: PublicLinkTable;
  ical_feeds: IcalFeedTable;
  board_views: BoardViewTable;
}

export type BoardRow = Selectable<BoardTable>;
export type NewBoard = Insertable<BoardTable>;
export type UserRow = Selectable<UserTable>;
export type AreaRow = Selectable<AreaTable>;
export type CardRow = Selectable<CardTable>;

export interface IdempotencyKeyTable {
  userId: string;
  key: string;
  fingerprint: string;
  status: number | null;
  response: string | null;
  createdAt: Timestamp;
  owner: string | null;
  appliedAt: NullableTimestamp;
}

export interface IdempotencyWriteTable {
  userId: string;
  key: string;
  ordinal: number;
  result: string | null;
}

export interface WebhookTable {
  id: Generated<number>;
  boardId: number;
  url: string;
  events: string | null;
  secret: string;
  active: Generated<number>;
  failures: Generated<number>;
  createdAt: Timestamp;
}

export interface WebhookDeliveryTable {
  id: Generated<number>;
  webhookId: number;
  boardId: number;
  version: number;
  event: string;
  status: Generated<string>;
  attempts: Generated<number>;
  responseStatus: number | null;
  lastError: string | null;
  nextAttemptAt: Timestamp;
  createdAt: Timestamp;
  deliveredAt: NullableTimestamp;
}

export interface TemplateTable {
  id: Generated<number>;
  ownerId: string;
  name: string;
  /** The structure as JSON (features/templates/snapshot.ts). */
  snapshot: string;
  areaCount: number;
  cardCount: number;
  createdAt: Timestamp;
}

/** A secret calendar feed address (`/api/ical/<token>.ics`); see features/ical. */
export interface IcalFeedTable {
  id: string;
  userId: string;
  name: string;
  /** The first characters of the secret, to tell feeds apart in a list. */
  start: string;
  /** SHA-256 hex of the secret; the secret itself is never stored. */
  tokenHash: string;
  /** JSON array of board ids whose every card the feed also holds (when still readable). */
  boardIds: Generated<string>;
  createdAt: Timestamp;
  lastUsedAt: NullableTimestamp;
}

/** A person's own view of a board (swimlanes); see features/board-views. */
export interface BoardViewTable {
  userId: string;
  boardId: number;
  /** `assignee`, `label`, `field:<id>`, or null for none. */
  lanes: string | null;
  updatedAt: Timestamp;
}
