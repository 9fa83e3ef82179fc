/**
 * A loopback fake of the open-protocol network (Bluesky): a PDS speaking XRPC (sessions with
 * JWTs that expire, records under record keys that may not be reused, blobs, handle resolution,
 * service auth) and the video service (upload, then a job that stays in progress for a few polls).
 * Errors are the network's `{error, message}` bodies, with the same names and statuses.
 */
import { createHash } from 'node:crypto'
import { startFakeServer, type FakeReply, type FakeRequest } from './fake-server'
import { openProtocolInbox, type OtherAuthor } from './open-protocol-inbox'

const TID = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')
const jwt = (payload: Record<string, unknown>) => `${b64({ alg: 'ES256K', typ: 'at+jwt' })}.${b64(payload)}.c2ln`
const cidOf = (bytes: Buffer | string) => `bafyrei${createHash('sha256').update(bytes).digest('hex').slice(0, 40)}`
const xerr = (status: number, error: string, message: string, headers?: Record<string, string>): FakeReply => ({
  status,
  json: { error, message },
  ...(headers ? { headers } : {}),
})

export interface StoredRecord {
  uri: string
  cid: string
  rkey: string
  value: any
}

export interface OpenProtocolFakeOptions {
  /** The clock JWT expiry is measured by (the test app's). */
  now: () => Date
  handle?: string
  did?: string
  appPassword?: string
  accessTtlSec?: number
  /** getJobStatus answers "processing" this many times before the blob. */
  videoPolls?: number
}

export async function startOpenProtocolFake(options: OpenProtocolFakeOptions) {
  const handle = options.handle ?? 'alice.test'
  const did = options.did ?? 'did:plc:alice0000000000000000000'
  const appPassword = options.appPassword ?? 'abcd-efgh-ijkl-mnop'
  const accessTtl = options.accessTtlSec ?? 7200
  const nowSec = () => Math.floor(options.now().getTime() / 1000)

  const state = {
    records: new Map<string, StoredRecord>(),
    blobs: new Map<string, { bytes: Buffer; mimeType: string }>(),
    accessTokens: new Set<string>(),
    refreshTokens: new Set<string>(),
    serviceTokens: new Map<string, { aud: string; lxm: string }>(),
    handles: new Map<string, string>([[handle, did]]),
    /** A post view's counts (0 unless set); a count set to undefined is left out, as the lexicon allows. */
    counts: new Map<string, Partial<Record<'likeCount' | 'replyCount' | 'repostCount' | 'quoteCount', number>>>(),
    videos: new Map<string, { bytes: Buffer; pollsLeft: number; fail: boolean; did: string }>(),
    followersCount: 42,
    createSessions: 0,
  }
  let serial = 0
  const planned: Array<{ nsid: string; reply: FakeReply; skip: number }> = []
  let loseNextCreate = false
  let duplicateAs500 = false
  let failVideo = false
  let videoSeenBefore = false
  /** app.bsky.video.getUploadLimits' answer (lexicon: canUpload, remainingDailyVideos, remainingDailyBytes, message?, error?). */
  let uploadLimits: Record<string, unknown> = {
    canUpload: true,
    remainingDailyVideos: 25,
    remainingDailyBytes: 10_000_000_000,
  }

  const takePlanned = (nsid: string) => {
    const i = planned.findIndex((p) => p.nsid === nsid)
    if (i < 0) return null
    if (planned[i]!.skip > 0) {
      planned[i]!.skip--
      return null
    }
    return planned.splice(i, 1)[0]!.reply
  }
  const newSession = () => {
    const n = ++serial
    const accessJwt = jwt({
      scope: 'com.atproto.appPass',
      sub: did,
      iat: nowSec(),
      exp: nowSec() + accessTtl,
      jti: `a${n}`,
    })
    const refreshJwt = jwt({
      scope: 'com.atproto.refresh',
      sub: did,
      iat: nowSec(),
      exp: nowSec() + 90 * 86400,
      jti: `r${n}`,
    })
    state.accessTokens.add(accessJwt)
    state.refreshTokens.add(refreshJwt)
    return {
      accessJwt,
      refreshJwt,
      handle,
      did,
      didDoc: {
        id: did,
        service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: pds.url }],
      },
      active: true,
    }
  }
  const expOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).exp as number
  /** null when the Bearer access token is good, else the network's answer. */
  const denied = (req: FakeRequest): FakeReply | null => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
    if (!token) return xerr(401, 'AuthenticationRequired', 'Authentication Required')
    if (!state.accessTokens.has(token)) return xerr(400, 'InvalidToken', 'Token could not be verified')
    if (expOf(token) <= nowSec()) return xerr(400, 'ExpiredToken', 'Token has expired')
    return null
  }
  const authed =
    (nsid: string, handler: (req: FakeRequest) => FakeReply | Promise<FakeReply>) => async (req: FakeRequest) =>
      takePlanned(nsid) ?? denied(req) ?? handler(req)
  const path = (nsid: string) => `/xrpc/${nsid}`

  const inbox = openProtocolInbox({ did, handle, records: state.records, counts: state.counts, authed })
  const pds = await startFakeServer(
    [
      ...inbox.routes,
      [
        'POST',
        path('com.atproto.server.createSession'),
        (req) => {
          state.createSessions++
          const planned = takePlanned('com.atproto.server.createSession')
          if (planned) return planned
          const { identifier, password } = req.json()
          if ((identifier !== handle && identifier !== did) || password !== appPassword)
            return xerr(401, 'AuthenticationRequired', 'Invalid identifier or password')
          return { json: newSession() }
        },
      ],
      [
        'POST',
        path('com.atproto.server.refreshSession'),
        (req) => {
          const planned = takePlanned('com.atproto.server.refreshSession')
          if (planned) return planned
          const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? ''
          if (!state.refreshTokens.has(token)) return xerr(400, 'ExpiredToken', 'Token has been revoked')
          state.refreshTokens.delete(token)
          return { json: newSession() }
        },
      ],
      [
        'GET',
        path('com.atproto.identity.resolveHandle'),
        authed('com.atproto.identity.resolveHandle', (req) => {
          const found = state.handles.get((req.query.get('handle') ?? '').toLowerCase())
          return found ? { json: { did: found } } : xerr(400, 'InvalidRequest', 'Unable to resolve handle')
        }),
      ],
      [
        'POST',
        path('com.atproto.repo.uploadBlob'),
        authed('com.atproto.repo.uploadBlob', (req) => {
          if (req.body.byteLength > 1_000_000)
            return xerr(400, 'BlobTooLarge', 'This file is too large. It is 1.2MB but the maximum size is 976.56KB.')
          const cid = cidOf(req.body)
          const mimeType = req.headers['content-type'] ?? '*/*'
          state.blobs.set(cid, { bytes: req.body, mimeType })
          return { json: { blob: { $type: 'blob', ref: { $link: cid }, mimeType, size: req.body.byteLength } } }
        }),
      ],
      [
        'POST',
        path('com.atproto.repo.createRecord'),
        authed('com.atproto.repo.createRecord', (req) => {
          const { repo, collection, rkey, record } = req.json()
          if (repo !== did) return xerr(400, 'InvalidRequest', 'Input/repo must be the authenticated account')
          if (collection === 'app.bsky.feed.like') return inbox.createLike(record)
          if (collection !== 'app.bsky.feed.post' || record?.$type !== collection)
            return xerr(400, 'InvalidRequest', 'Invalid app.bsky.feed.post record')
          if (typeof rkey !== 'string' || !TID.test(rkey))
            return xerr(400, 'InvalidRequest', 'Invalid record key: must be a TID')
          if ([...(record.text as string)].length > 3000)
            return xerr(
              400,
              'InvalidRequest',
              'Invalid app.bsky.feed.post record: Record/text must not be longer than 300 graphemes',
            )
          for (const image of record.embed?.images ?? [])
            if (!state.blobs.has(image.image?.ref?.$link)) return xerr(400, 'InvalidRequest', 'Could not find blob')
          if (record.embed?.video && !state.blobs.has(record.embed.video.ref?.$link))
            return xerr(400, 'InvalidRequest', 'Could not find blob')
          for (const ref of record.reply ? [record.reply.root, record.reply.parent] : []) {
            const target = inbox.find(ref?.uri)
            if (!target || target.cid !== ref.cid) return xerr(400, 'InvalidRequest', 'Invalid reply reference')
          }
          if (state.records.has(rkey))
            return duplicateAs500
              ? xerr(500, 'InternalServerError', 'Internal Server Error')
              : xerr(400, 'RecordAlreadyExists', 'Record already exists')
          const uri = `at://${did}/${collection}/${rkey}`
          const stored = { uri, cid: cidOf(JSON.stringify(record)), rkey, value: record }
          state.records.set(rkey, stored)
          if (loseNextCreate) {
            loseNextCreate = false
            return xerr(502, 'UpstreamFailure', 'Upstream Failure')
          }
          return { json: { uri, cid: stored.cid, commit: { cid: cidOf(uri), rev: rkey }, validationStatus: 'valid' } }
        }),
      ],
      [
        'GET',
        path('com.atproto.repo.getRecord'),
        authed('com.atproto.repo.getRecord', (req) => {
          if (req.query.get('collection') === 'app.bsky.feed.threadgate')
            return inbox.getGate(req.query.get('rkey') ?? '')
          const found = req.query.get('repo') === did ? state.records.get(req.query.get('rkey') ?? '') : undefined
          return found
            ? { json: { uri: found.uri, cid: found.cid, value: found.value } }
            : xerr(
                400,
                'RecordNotFound',
                `Could not locate record: at://${req.query.get('repo')}/${req.query.get('collection')}/${req.query.get('rkey')}`,
              )
        }),
      ],
      [
        'POST',
        path('com.atproto.repo.deleteRecord'),
        authed('com.atproto.repo.deleteRecord', (req) => {
          state.records.delete(req.json().rkey)
          return { json: { commit: { cid: cidOf(String(++serial)), rev: 'x' } } }
        }),
      ],
      [
        'GET',
        path('com.atproto.server.getServiceAuth'),
        authed('com.atproto.server.getServiceAuth', (req) => {
          const token = jwt({
            iss: did,
            aud: req.query.get('aud'),
            lxm: req.query.get('lxm'),
            exp: Number(req.query.get('exp')) || nowSec() + 60,
            jti: `s${++serial}`,
          })
          state.serviceTokens.set(token, { aud: req.query.get('aud') ?? '', lxm: req.query.get('lxm') ?? '' })
          return { json: { token } }
        }),
      ],
      [
        'GET',
        path('app.bsky.actor.getProfile'),
        authed('app.bsky.actor.getProfile', () => ({
          json: { did, handle, followersCount: state.followersCount, followsCount: 3, postsCount: state.records.size },
        })),
      ],
      [
        'GET',
        path('app.bsky.feed.getPosts'),
        authed('app.bsky.feed.getPosts', (req) => {
          const uris = req.query.getAll('uris')
          if (uris.length > 25) return xerr(400, 'InvalidRequest', 'uris must not have more than 25 elements')
          const posts = uris
            .map((uri) => inbox.find(uri))
            .filter((r) => r !== undefined)
            .map(inbox.view)
          return { json: { posts } }
        }),
      ],
    ],
    () => xerr(501, 'MethodNotImplemented', 'Method Not Implemented'),
  )

  /** A service token minted by the PDS for `aud` and `lxm`, else null. */
  const serviceGrant = (req: FakeRequest, aud: string, lxm: string) => {
    const grant = state.serviceTokens.get(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '')
    return grant && grant.aud === aud && grant.lxm === lxm ? grant : null
  }
  const video = await startFakeServer(
    [
      [
        'GET',
        path('app.bsky.video.getUploadLimits'),
        (req) => {
          if (
            !serviceGrant(
              req,
              `did:web:${new URL(video.url).host.replace(':', '%3A')}`,
              'app.bsky.video.getUploadLimits',
            )
          )
            return xerr(401, 'AuthenticationRequired', 'Invalid service token')
          return { json: uploadLimits }
        },
      ],
      [
        'POST',
        path('app.bsky.video.uploadVideo'),
        (req) => {
          const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? ''
          const grant = state.serviceTokens.get(token)
          const aud = `did:web:${new URL(pds.url).host.replace(':', '%3A')}`
          if (!grant || grant.aud !== aud || grant.lxm !== 'com.atproto.repo.uploadBlob')
            return xerr(401, 'AuthenticationRequired', 'Invalid service token')
          if (req.query.get('did') !== did || !req.query.get('name'))
            return xerr(400, 'InvalidRequest', 'did and name are required')
          const jobId = `job${++serial}`
          state.videos.set(jobId, { bytes: req.body, pollsLeft: options.videoPolls ?? 2, fail: failVideo, did })
          return { json: { jobId, did, state: 'JOB_STATE_CREATED', progress: 0 } }
        },
      ],
      [
        'GET',
        path('app.bsky.video.getJobStatus'),
        (req) => {
          const jobId = req.query.get('jobId') ?? ''
          const job = state.videos.get(jobId)
          if (!job) return xerr(400, 'InvalidRequest', 'Job not found')
          if (job.pollsLeft > 0) {
            job.pollsLeft--
            return { json: { jobStatus: { jobId, did: job.did, state: 'JOB_STATE_ENCODING', progress: 50 } } }
          }
          if (job.fail)
            return {
              json: {
                jobStatus: {
                  jobId,
                  did: job.did,
                  state: 'JOB_STATE_FAILED',
                  error: 'video_too_long',
                  message: 'Video is too long',
                },
              },
            }
          const cid = cidOf(job.bytes)
          state.blobs.set(cid, { bytes: job.bytes, mimeType: 'video/mp4' })
          // The docs: a video processed before ends in an `already_exists` error that still carries its blob.
          if (videoSeenBefore)
            return {
              json: {
                jobStatus: {
                  jobId,
                  did: job.did,
                  state: 'JOB_STATE_FAILED',
                  error: 'already_exists',
                  message: 'Video already processed',
                  blob: { $type: 'blob', ref: { $link: cid }, mimeType: 'video/mp4', size: job.bytes.byteLength },
                },
              },
            }
          return {
            json: {
              jobStatus: {
                jobId,
                did: job.did,
                state: 'JOB_STATE_COMPLETED',
                progress: 100,
                blob: { $type: 'blob', ref: { $link: cid }, mimeType: 'video/mp4', size: job.bytes.byteLength },
              },
            },
          }
        },
      ],
    ],
    () => xerr(501, 'MethodNotImplemented', 'Method Not Implemented'),
  )

  return {
    url: pds.url,
    videoUrl: video.url,
    pds,
    video,
    state,
    handle,
    did,
    appPassword,
    /** Posts by other accounts (replies, mentions), like records and threadgates. */
    others: inbox.others,
    likes: inbox.likes,
    gates: inbox.gates,
    addOther: (author: OtherAuthor, text: string, createdAt: string, replyTo: string | null = null) =>
      inbox.addOther(author, text, createdAt, replyTo),
    /** Posts in creation order. */
    posts: () => [...state.records.values()],
    /** The next call of `nsid` (after `skip` good ones) answers this instead. */
    failNext(nsid: string, reply: FakeReply, skip = 0) {
      planned.push({ nsid, reply, skip })
    },
    /** The next post is created, but its answer is lost (a 502 reaches the caller). */
    loseNextCreate: () => (loseNextCreate = true),
    /** Every access token issued so far stops working (the server revoked them). */
    revokeAccessTokens: () => state.accessTokens.clear(),
    revokeRefreshTokens: () => state.refreshTokens.clear(),
    /** Answer a taken record key as older servers do (a 500) instead of RecordAlreadyExists. */
    duplicateAs500: (on: boolean) => (duplicateAs500 = on),
    /** Jobs finish as `already_exists` (the service processed these bytes before), blob included. */
    videoSeenBefore: (on: boolean) => (videoSeenBefore = on),
    /** What getUploadLimits answers from now on. */
    setUploadLimits: (limits: Record<string, unknown>) => (uploadLimits = limits),
    /** Video jobs created from now on fail. */
    failVideoJobs: (on: boolean) => (failVideo = on),
  }
}

export type OpenProtocolFake = Awaited<ReturnType<typeof startOpenProtocolFake>>
