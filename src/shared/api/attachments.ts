import { Type, type Static } from 'typebox';
import { Id } from './common.js';

/** A file on a card, as the attachment routes (and the realtime events) answer with it. */
export const Attachment = Type.Object({
  id: Type.Integer(),
  filename: Type.String({ description: 'the original name, made safe: no path, no control characters, at most 255 characters' }),
  filetype: Type.String({ description: 'the media type the uploader declared' }),
  filesize: Type.Integer({ description: 'bytes' }),
  createdAt: Type.String(),
});
export type Attachment = Static<typeof Attachment>;

export const AttachmentQuery = Type.Object({ id: Id });

/** What `POST /api/data/image` answers: the address to put into Markdown. */
export const UploadedImage = Type.Object({
  url: Type.String({ description: '`/api/data/image/<name>`, readable by whoever can read the board' }),
  id: Type.Integer(),
});
export type UploadedImage = Static<typeof UploadedImage>;
