import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js'

/** A prompt: its listing, and the messages it expands to with the arguments given. */
export interface McpPrompt {
  prompt: Prompt
  render(args: Record<string, string | undefined>): GetPromptResult
}

const when = (at: string | undefined): string => {
  if (!at || at === 'queue') return 'in the next free queue slot (`action: "queue"`; see get_queue_slots)'
  if (at === 'now') return 'now (`action: "now"`), after the user confirmed the preview'
  return `at ${at} (\`action: "schedule"\`, \`scheduledAt\` in ISO 8601 with an offset or Z)`
}

/** The walk-through, one step per line; each names the tools it uses, in the order an agent needs them. */
const STEPS = [
  '1. get_workspace: check the plan allows another post this month (`usage.postsThisMonth` against ' +
    '`plan.limits.monthlyPosts`, -1 = unlimited).',
  '2. list_accounts: pick the ACTIVE accounts meant; an EXPIRED account must be reconnected by me first, so tell me.',
  '3. platform_limits with those platforms: note each caption budget and how it is counted, thread caps, and the ' +
    'media each format takes (counts, sizes, durations, aspect ratios). Where `options.destination` is set, each ' +
    'account needs one from list_destinations (`destinations`); `options.fields` are its `targetOptions`.',
  '4. Media: upload_media_from_url for each URL (set `altText`), or create_media_upload + PUT + register_media for ' +
    'a local file. If a network wants another aspect ratio, create_variants and use the variant ids.',
  '5. Write the caption for the strictest budget, or a `captionOverrides` entry per platform where one text does ' +
    'not fit; use `threadParts` only on networks that thread.',
  '6. preview_post with the full create_post arguments. Fix every error it lists and preview again until `valid` ' +
    'is true; read the warnings. Show me the per-network captions.',
  '7. create_post with the same arguments and the action for the time above. To choose a time, best_times gives ' +
    'the hours this workspace does best.',
  '8. get_post: report each target status; once published, give me the permalinks. A FAILED target with ' +
    '`retryable: true` can go through retry_post; `auth_expired` needs me to reconnect the account.',
  'Never publish now without my confirmation, and never create the same post twice (create_post is not ' +
    'idempotent: if a call failed, list_posts first).',
]

export const publishASocialPost: McpPrompt = {
  prompt: {
    name: 'publish-a-social-post',
    title: 'Publish a social post',
    description:
      'Walks through writing one post for several networks: accounts and limits, media, a preview within every ' +
      "network's budget, then scheduling and checking the outcome.",
    arguments: [
      { name: 'brief', description: 'What the post is about, or its draft text.', required: true },
      { name: 'networks', description: 'Platforms or usernames to post to (default: every ACTIVE account).' },
      { name: 'media', description: 'Public URLs of images or videos to attach, comma-separated.' },
      { name: 'when', description: '`now`, `queue` (default) or an ISO 8601 time.' },
    ],
  },
  render: ({ brief, networks, media, when: at }) => ({
    description: 'Publish a social post, step by step.',
    messages: [
      {
        role: 'user',
        content: {
          type: 'text',
          text: [
            `Publish a social post about: ${brief ?? '(ask me what it is about)'}.`,
            `Accounts: ${networks ?? 'every ACTIVE account'}. Media: ${media ?? 'none unless it helps'}.`,
            `Time: ${when(at)}.`,
            '',
            'Follow these steps with the social publishing tools:',
            ...STEPS,
          ].join('\n'),
        },
      },
    ],
  }),
}

export const PROMPTS: McpPrompt[] = [publishASocialPost]
