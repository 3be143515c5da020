import { Type } from 'typebox';

export const Id = Type.Integer({ minimum: 1 });
export const ErrorBody = Type.Object({ error: Type.String() }, { description: 'What went wrong' });
export const Message = Type.Object({ message: Type.String() });
export const Success = Type.Object({ success: Type.Boolean() });
export const NullableString = Type.Union([Type.String(), Type.Null()]);

/** The refusals every data route can answer with. */
export const errorResponses = {
  400: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
};
