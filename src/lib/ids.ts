/** Opaque, prefixed identifiers (`post_3kq…`): the prefix says what an id names, the rest is 128 random bits. */
const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'

export function randomBase62(length: number): string {
  const out: string[] = []
  // Rejection sampling keeps every character uniformly likely (256 is not a multiple of 62).
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2))
    for (const b of bytes) {
      if (b < 248 && out.length < length) out.push(ALPHABET[b % 62]!)
    }
  }
  return out.join('')
}

export const ID_PREFIX = {
  workspace: 'ws',
  token: 'tok',
  account: 'acc',
  post: 'post',
  target: 'tgt',
  media: 'med',
  folder: 'fld',
  slot: 'slot',
  webhookEndpoint: 'whe',
  webhookEvent: 'evt',
  webhookDelivery: 'whd',
  eventStream: 'evs',
  webhookAttempt: 'wha',
  connectLink: 'cl',
  oauthState: 'ost',
  user: 'usr',
  session: 'ses',
  invitation: 'inv',
  connectChoice: 'cch',
  agentClient: 'agc',
  agentAuthorization: 'aga',
  inboxComment: 'cmt',
  inboxReply: 'rpl',
  group: 'grp',
  label: 'lbl',
  note: 'note',
  reviewLink: 'rvl',
  activity: 'act',
  notification: 'ntf',
  email: 'eml',
} as const

export type IdKind = keyof typeof ID_PREFIX

const ID_LENGTH = 22

export function newId(kind: IdKind): string {
  return `${ID_PREFIX[kind]}_${randomBase62(ID_LENGTH)}`
}

/** `count` new ids of one kind, from one draw of random bytes (a draw costs more than the ids). */
export function newIds(kind: IdKind, count: number): string[] {
  const random = randomBase62(ID_LENGTH * count)
  return Array.from(
    { length: count },
    (_, i) => `${ID_PREFIX[kind]}_${random.slice(i * ID_LENGTH, (i + 1) * ID_LENGTH)}`,
  )
}
