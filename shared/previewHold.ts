/**
 * What Preview adds for Run now's confirmation (`GET /api/rules/{id}/preview/`): whether a run now
 * would be held for approval by the blast-radius limit (ENGINE_MAX_SHARE, ENGINE_MAX_ACTIONS, the
 * folder's daily increase limit) and the numbers it is judged on, and whether the rule is notify
 * only (a run then turns nothing off).
 */
import { z } from 'zod';
import { previewResultSchema, type PreviewResultDto } from './contracts';

export interface PreviewHoldDto {
  /** A run now would act on nothing and wait for approval. */
  held: boolean;
  /** Why ("would turn off 30 of 40 delivering ads (75%, limit 50%)"); '' when not held. */
  summary: string;
  /** Delivering ads the turn-offs reach (a campaign's count as all of its delivering ads). */
  affected: number;
  delivering: number;
  /** Turn-offs and budget changes together. */
  actions: number;
  max_share: number;
  max_actions: number;
}

export type PreviewAnswerDto = PreviewResultDto & { hold?: PreviewHoldDto; notify_only?: boolean };

export const previewHoldSchema = z
  .object({
    held: z.boolean(),
    summary: z.string(),
    affected: z.number().int(),
    delivering: z.number().int(),
    actions: z.number().int(),
    max_share: z.number(),
    max_actions: z.number().int(),
  })
  .describe(
    'Whether a run now would be held for approval by the blast-radius limit, and the numbers judged',
  ) satisfies z.ZodType<PreviewHoldDto>;

export const previewAnswerSchema = previewResultSchema.extend({
  hold: previewHoldSchema.optional(),
  notify_only: z.boolean().optional().describe('The rule is notify only: a run turns nothing off'),
}) satisfies z.ZodType<PreviewAnswerDto>;
