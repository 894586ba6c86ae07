import { Type } from 'typebox';

export const CopyBody = Type.Object({
  source_venue_id: Type.String({ minLength: 1, maxLength: 100 }),
  scope: Type.String({ minLength: 1, maxLength: 50 }),
});
export const CopyResult = Type.Object({ success: Type.Boolean(), copied: Type.Integer() });
