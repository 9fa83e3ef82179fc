/** A maker of comments on a Graph-style inbox fake: the defaults every network's tests share, its own ids and authors. */
import type { FakeComment } from '../../fakes/graph-inbox'

/** What differs per network: the n-th comment's id, author and time. */
export type CommentLook = (
  seq: number,
  postId: string,
) => Pick<FakeComment, 'id' | 'authorId' | 'username' | 'timestamp'>

/** Returns `(postId, text, over?)` that adds a visible, unliked comment to `into` and returns it. */
export function fakeCommentMaker(into: FakeComment[], look: CommentLook) {
  let seq = 0
  return (postId: string, text: string, over: Partial<FakeComment> = {}): FakeComment => {
    seq += 1
    const c: FakeComment = {
      ...look(seq, postId),
      postId,
      parentId: null,
      text,
      hidden: false,
      liked: false,
      deleted: false,
      ...over,
    }
    into.push(c)
    return c
  }
}
