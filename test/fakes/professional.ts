/**
 * A loopback PROFESSIONAL_NET (Posts API), from its documentation: every call must carry the
 * bearer token, `LinkedIn-Version: YYYYMM` and `X-Restli-Protocol-Version: 2.0.0`; errors are
 * `{status, serviceErrorCode, code, message}`. Images and videos are initialised, uploaded to the
 * URL the fake hands back (its own), videos in byte ranges acknowledged with ETags and finalised,
 * then stay PROCESSING for a few status polls. Posts answer 201 with the URN in `x-restli-id`; an
 * identical commentary from the same author is refused as DUPLICATE_POST, as the network does.
 * The posts list with paging, comments, replies and reactions are in professional-inbox.ts.
 */
import { createHash } from 'node:crypto'
import { oauthFake } from './oauth-provider'
import { startFakeServer, type FakeReply, type FakeRequest } from './fake-server'
import { professionalInboxRoutes } from './professional-inbox'

export interface FakeAsset {
  urn: string
  kind: 'image' | 'video'
  owner: string
  bytes: Buffer | null
  parts: Array<{ firstByte: number; lastByte: number; etag: string; bytes: Buffer | null }>
  fileSizeBytes: number
  status: 'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE' | 'PROCESSING_FAILED'
  pollsLeft: number
}

export interface FakeLinkedInPost {
  urn: string
  author: string
  commentary: string
  content: any
  body: any
  /** Epoch ms; a post made through the fake is as new as the fake's last post. */
  publishedAt?: number
}

/**
 * Versions the documentation shows as active in late 2026 (Marketing migrations page: 202601-202603
 * sunset in Jan-Mar 2027; versioned pages up to li-lms-2026-05; each supported at least a year).
 * 202510/202511 sunset in Oct/Nov 2026; anything later than documented is not known to exist.
 */
export const ACTIVE_VERSIONS = ['202601', '202602', '202603', '202604', '202605']

const error = (status: number, code: string, message: string, serviceErrorCode = 100): FakeReply => ({
  status,
  json: { status, serviceErrorCode, code, message },
})

export async function startProfessionalFake(
  options: {
    token?: string
    memberId?: string
    memberName?: string
    orgId?: string
    orgName?: string
    videoPartSize?: number
    processingPolls?: number
    /** The member's roles in organisations (`/rest/organizationAcls?q=roleAssignee`); none by default. */
    roles?: Array<{ orgId: string; role: string; state: string }>
  } = {},
) {
  const state = {
    token: options.token ?? 'li-token',
    memberId: options.memberId ?? 'abc123',
    orgId: options.orgId ?? '2414183',
    assets: new Map<string, FakeAsset>(),
    posts: [] as FakeLinkedInPost[],
    deleted: [] as string[],
    processingPolls: options.processingPolls ?? 1,
    failProcessing: false,
    /** The next post is created but its answer is lost (a gateway timeout), as after a dropped connection. */
    loseNextPostAnswer: false,
    queued: [] as Array<{ match: RegExp; reply: FakeReply }>,
  }
  let seq = 0
  const partSize = options.videoPartSize ?? 4 * 1024 * 1024
  let origin = ''

  const guard = (req: FakeRequest): FakeReply | null => {
    const queued = state.queued.findIndex((q) => q.match.test(`${req.method} ${req.path}`))
    if (queued >= 0) return state.queued.splice(queued, 1)[0]!.reply
    if (req.headers.authorization !== `Bearer ${state.token}`)
      return error(401, 'REVOKED_ACCESS_TOKEN', 'The token used in the request has been revoked by the user', 65601)
    const version = req.headers['linkedin-version'] ?? ''
    if (!ACTIVE_VERSIONS.includes(version))
      return error(426, 'NONEXISTENT_VERSION', `Requested version ${version} is not active`)
    if (req.headers['x-restli-protocol-version'] !== '2.0.0')
      return error(400, 'BAD_REQUEST', 'X-Restli-Protocol-Version 2.0.0 is required')
    return null
  }
  const withGuard =
    (handler: (req: FakeRequest, params: string[]) => FakeReply | Promise<FakeReply>) =>
    async (req: FakeRequest, params: string[]) =>
      guard(req) ?? handler(req, params)

  const poll = (asset: FakeAsset | undefined): FakeReply => {
    if (!asset) return error(404, 'NOT_FOUND', 'No such asset')
    if (asset.status === 'PROCESSING') {
      if (state.failProcessing) asset.status = 'PROCESSING_FAILED'
      else if (asset.pollsLeft-- <= 0) asset.status = 'AVAILABLE'
    }
    return {
      json: {
        id: asset.urn,
        status: asset.status,
        ...(asset.status === 'AVAILABLE' ? { downloadUrl: `${origin}/dl/${encodeURIComponent(asset.urn)}` } : {}),
      },
    }
  }

  // Hosted connect: 3-legged OAuth for web apps, the client in the form body, 60-day tokens.
  const oauth = oauthFake(
    { client: { id: 'li-client', secret: 'li-secret' }, clientAuth: 'post', pkce: false, expiresIn: 5_184_000 },
    (issued) => {
      state.token = issued.accessToken
    },
  )
  const inbox = professionalInboxRoutes({
    withGuard: (handler) => withGuard(handler),
    error,
    posts: () => state.posts,
    now: () => new Date(),
  })
  const server = await startFakeServer(
    [
      ...inbox.routes,
      ['GET', '/oauth/v2/authorization', (req) => oauth.authorize(req)],
      ['POST', '/oauth/v2/accessToken', (req) => oauth.exchange(req)],
      ['POST', '/oauth/v2/revoke', (req) => oauth.revoke(req)],
      [
        'GET',
        '/v2/userinfo',
        withGuard(() => ({
          json: {
            sub: state.memberId,
            name: options.memberName ?? 'Ada Lovelace',
            given_name: 'Ada',
            family_name: 'Lovelace',
            email_verified: true,
          },
        })),
      ],
      [
        'GET',
        '/rest/organizationAcls',
        withGuard((req) => {
          if (req.query.get('q') !== 'roleAssignee') return error(400, 'BAD_REQUEST', 'Unknown finder')
          const [role, roleState] = [req.query.get('role'), req.query.get('state')]
          const elements = (options.roles ?? [])
            .filter((r) => (!role || r.role === role) && (!roleState || r.state === roleState))
            .map((r) => ({
              organization: `urn:li:organization:${r.orgId}`,
              roleAssignee: `urn:li:person:${state.memberId}`,
              role: r.role,
              state: r.state,
            }))
          return { json: { paging: { count: 100, start: 0, total: elements.length }, elements } }
        }),
      ],
      [
        'GET',
        /^\/rest\/organizations\/([^/]+)$/,
        withGuard((_req, [id]) =>
          id === state.orgId
            ? {
                json: {
                  id: Number(id),
                  localizedName: options.orgName ?? 'Analytical Engines Ltd',
                  vanityName: 'engines',
                },
              }
            : error(404, 'NOT_FOUND', `Organization ${id} not found`),
        ),
      ],
      [
        'POST',
        '/rest/images',
        withGuard((req) => {
          if (req.query.get('action') !== 'initializeUpload') return error(400, 'BAD_REQUEST', 'Unknown action')
          const owner = req.json().initializeUploadRequest?.owner
          const urn = `urn:li:image:C4E${++seq}`
          state.assets.set(urn, {
            urn,
            kind: 'image',
            owner,
            bytes: null,
            parts: [],
            fileSizeBytes: 0,
            status: 'WAITING_UPLOAD',
            pollsLeft: state.processingPolls,
          })
          return {
            json: {
              value: {
                uploadUrlExpiresAt: Date.now() + 3_600_000,
                uploadUrl: `${origin}/upload/image/${encodeURIComponent(urn)}`,
                image: urn,
              },
            },
          }
        }),
      ],
      [
        'PUT',
        /^\/upload\/image\/([^/]+)$/,
        withGuard((req, [u]) => {
          const asset = state.assets.get(decodeURIComponent(u!))
          if (!asset) return error(404, 'NOT_FOUND', 'Upload URL expired')
          asset.bytes = req.body
          asset.status = 'PROCESSING'
          return { status: 201 }
        }),
      ],
      ['GET', /^\/rest\/images\/([^/]+)$/, withGuard((_req, [u]) => poll(state.assets.get(decodeURIComponent(u!))))],
      [
        'POST',
        '/rest/videos',
        withGuard((req) => {
          const action = req.query.get('action')
          if (action === 'initializeUpload') {
            const r = req.json().initializeUploadRequest ?? {}
            if (typeof r.fileSizeBytes !== 'number' || r.uploadCaptions !== false || r.uploadThumbnail !== false)
              return error(400, 'BAD_REQUEST', 'initializeUploadRequest is missing fields')
            const urn = `urn:li:video:D5F${++seq}`
            const parts: FakeAsset['parts'] = []
            for (let first = 0; first < r.fileSizeBytes; first += partSize)
              parts.push({
                firstByte: first,
                lastByte: Math.min(first + partSize, r.fileSizeBytes) - 1,
                etag: '',
                bytes: null,
              })
            state.assets.set(urn, {
              urn,
              kind: 'video',
              owner: r.owner,
              bytes: null,
              parts,
              fileSizeBytes: r.fileSizeBytes,
              status: 'WAITING_UPLOAD',
              pollsLeft: state.processingPolls,
            })
            return {
              json: {
                value: {
                  uploadUrlsExpireAt: Date.now() + 3_600_000,
                  video: urn,
                  uploadInstructions: parts.map((p, i) => ({
                    uploadUrl: `${origin}/upload/video/${encodeURIComponent(urn)}/${i}`,
                    firstByte: p.firstByte,
                    lastByte: p.lastByte,
                  })),
                  uploadToken: `token-${urn}`,
                },
              },
            }
          }
          if (action === 'finalizeUpload') {
            const r = req.json().finalizeUploadRequest ?? {}
            const asset = state.assets.get(r.video)
            if (!asset || r.uploadToken !== `token-${asset.urn}`)
              return error(400, 'BAD_REQUEST', 'Unknown video or upload token')
            if (
              JSON.stringify(r.uploadedPartIds) !== JSON.stringify(asset.parts.map((p) => p.etag)) ||
              asset.parts.some((p) => !p.bytes)
            )
              return error(400, 'BAD_REQUEST', 'uploadedPartIds do not match the parts uploaded')
            asset.bytes = Buffer.concat(asset.parts.map((p) => p.bytes!))
            asset.status = 'PROCESSING'
            return { status: 200 }
          }
          return error(400, 'BAD_REQUEST', 'Unknown action')
        }),
      ],
      [
        'PUT',
        /^\/upload\/video\/([^/]+)\/(\d+)$/,
        withGuard((req, [u, n]) => {
          const part = state.assets.get(decodeURIComponent(u!))?.parts[Number(n)]
          if (!part) return error(404, 'NOT_FOUND', 'Upload URL expired')
          if (req.body.length !== part.lastByte - part.firstByte + 1)
            return error(400, 'BAD_REQUEST', 'Part size does not match the instruction')
          part.bytes = req.body
          part.etag = `/etag/${createHash('md5').update(req.body).digest('hex')}`
          return { status: 200, headers: { etag: part.etag } }
        }),
      ],
      ['GET', /^\/rest\/videos\/([^/]+)$/, withGuard((_req, [u]) => poll(state.assets.get(decodeURIComponent(u!))))],
      [
        'POST',
        '/rest/posts',
        withGuard((req) => {
          const b = req.json()
          if (
            !b.author ||
            typeof b.commentary !== 'string' ||
            b.visibility !== 'PUBLIC' ||
            b.lifecycleState !== 'PUBLISHED' ||
            b.distribution?.feedDistribution !== 'MAIN_FEED'
          )
            return error(422, 'UNPROCESSABLE_ENTITY', 'Post body is missing required fields')
          const ids: string[] = b.content?.media
            ? [b.content.media.id]
            : (b.content?.multiImage?.images ?? []).map((i: { id: string }) => i.id)
          for (const id of ids)
            if (state.assets.get(id)?.status !== 'AVAILABLE')
              return error(422, 'UNPROCESSABLE_ENTITY', `Media ${id} is not available`)
          const same = state.posts.find((p) => p.author === b.author && p.commentary === b.commentary)
          if (same) return error(422, 'DUPLICATE_POST', `Content is a duplicate of ${same.urn}`)
          const urn = `urn:li:share:7${String(++seq).padStart(18, '0')}`
          state.posts.push({ urn, author: b.author, commentary: b.commentary, content: b.content ?? null, body: b })
          if (state.loseNextPostAnswer) {
            state.loseNextPostAnswer = false
            return error(504, 'GATEWAY_TIMEOUT', 'Gateway timeout')
          }
          return { status: 201, headers: { 'x-restli-id': urn }, body: '' }
        }),
      ],
      [
        'GET',
        '/rest/posts',
        withGuard((req) => {
          if (req.query.get('q') !== 'author') return error(400, 'BAD_REQUEST', 'q=author is required')
          const author = req.query.get('author')
          const count = Number(req.query.get('count') ?? 10)
          const elements = state.posts
            .filter((p) => p.author === author)
            .reverse()
            .slice(0, count)
            .map((p) => ({ id: p.urn, author: p.author, commentary: p.commentary, lifecycleState: 'PUBLISHED' }))
          return { json: { paging: { start: 0, count, links: [] }, elements } }
        }),
      ],
      [
        'DELETE',
        /^\/rest\/posts\/([^/]+)$/,
        withGuard((_req, [u]) => {
          const urn = decodeURIComponent(u!)
          state.posts = state.posts.filter((p) => p.urn !== urn)
          state.deleted.push(urn)
          return { status: 204 }
        }),
      ],
    ],
    () => error(404, 'NOT_FOUND', 'Resource not found'),
  )
  origin = server.url
  return {
    oauth,
    ...server,
    state,
    /** Comments, replies and reactions on the author's posts (professional-inbox.ts). */
    inbox,
    /** The next request whose `METHOD /path` matches gets this answer instead (status, body, headers). */
    failNext(match: RegExp, reply: FakeReply) {
      state.queued.push({ match, reply })
    },
    error,
  }
}

export type ProfessionalFake = Awaited<ReturnType<typeof startProfessionalFake>>
