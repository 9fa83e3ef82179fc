import type { Deps } from '../../deps'
import type { ContentFieldsInput } from '../../domain/post-content'
import type { PostWarning } from '../../domain/post-validation'
import type { PostType } from '../../domain/vocabulary'
import type { PostRecord } from './record'

export const POST_ACTIONS = ['draft', 'now', 'schedule', 'queue'] as const
export type PostAction = (typeof POST_ACTIONS)[number]

/** Content fields of a post body and its time; on edit, `undefined` keeps a field and `null` clears it. */
export interface PostContentInput extends ContentFieldsInput {
  scheduledAt?: string | null
}

export interface CreatePostInput extends PostContentInput {
  type: PostType
  accountIds: string[]
  mediaIds: string[]
  /** The post's labels; absent: none. */
  labelIds?: string[] | undefined
  action: PostAction
}

export interface UpdatePostInput extends PostContentInput {
  type?: PostType
  accountIds?: string[]
  mediaIds?: string[]
  /** Replaces the labels; absent: unchanged. */
  labelIds?: string[] | undefined
  action?: PostAction
}

/** What create, edit and reschedule answer: the post, and what the write accepted but reports back. */
export type WrittenPost = PostRecord & { warnings: PostWarning[] }

/** What creating, editing and deleting a post work with. */
export type PostWriteDeps = Pick<
  Deps,
  'db' | 'clock' | 'publishQueue' | 'logger' | 'cipher' | 'networks' | 'webhookQueue' | 'settings'
>
