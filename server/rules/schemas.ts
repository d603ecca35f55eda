/** Route schemas of the folders-and-rules area that only the server needs (the shared ones are in shared/). */
import { z } from 'zod';
import { MESSAGES } from '../../shared/validation';
import { MAX_ID } from '../http/params';
import { orderingQuery, pageQuery, searchQuery } from '../http/schemas';
import { actionField, conditionsField } from './ruleConditionFields';

export const folderTags = ['folders'];
export const ruleTags = ['rules'];
export const trashTags = ['trash'];

export const folderListQuery = pageQuery.extend(orderingQuery.shape).extend(searchQuery.shape);

const folderRef = z.coerce
  .number({ error: MESSAGES.required })
  .int(MESSAGES.required)
  .positive(MESSAGES.required)
  .max(MAX_ID, 'Folder not found');

/** `POST /api/rule/`: the folder to add a rule to, as `folder` or `folder_id`; conditions and an action if any. */
export const ruleCreateSchema = z
  .object({
    folder: folderRef.optional(),
    folder_id: folderRef.optional(),
    conditions: conditionsField.optional(),
    action: actionField.optional(),
  })
  .transform((body, ctx) => {
    const folder = body.folder ?? body.folder_id;
    if (folder === undefined) {
      ctx.addIssue({ code: 'custom', path: ['folder'], message: MESSAGES.required });
      return z.NEVER;
    }
    return { folder, conditions: body.conditions ?? null, action: body.action ?? null };
  });

export const timezoneOptionSchema = z.object({ title: z.string(), value: z.string() });
