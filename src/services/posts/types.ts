import type { PlatformId, PostType } from '../../domain/vocabulary'

export const POST_ACTIONS = ['draft', 'now', 'schedule', 'queue'] as const
export type PostAction = (typeof POST_ACTIONS)[number]

export interface RecurrenceInput {
  frequency: 'daily' | 'weekly' | 'monthly'
  interval: number
  endsAt: string | null
  count: number | null
}

/** Content fields of a post body; on edit, `undefined` keeps a field and `null` clears it. */
export interface PostContentInput {
  caption?: string | null
  captionOverrides?: Partial<Record<PlatformId, string>> | null
  scheduledAt?: string | null
  threadParts?: string[] | null
  firstComment?: string | null
  replyToMicropostId?: string | null
  quoteMicropostId?: string | null
  videoNetOptions?: Record<string, Record<string, unknown>> | null
  audio?: { audioId: string; audioVolume?: number | undefined; videoVolume?: number | undefined } | null
  pinboardNetBoards?: Record<string, string> | null
  pinboardNetOptions?: { title?: string | null | undefined } | null
  linkUrl?: string | null
  recurrence?: RecurrenceInput | null
}

export interface CreatePostInput extends PostContentInput {
  type: PostType
  accountIds: string[]
  mediaIds: string[]
  action: PostAction
}

export interface UpdatePostInput extends PostContentInput {
  type?: PostType
  accountIds?: string[]
  mediaIds?: string[]
  action?: PostAction
}
