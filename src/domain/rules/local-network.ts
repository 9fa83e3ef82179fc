/**
 * Rules of the local business network (Google Business Profile local posts, My Business API v4):
 * a post is a summary, at most one photo and the options of its topic (an event, an offer, a call
 * to action) as per-target `fields`. How fields depend on each other (an event needs its title
 * and schedule) is checked by local-network-checks.ts. Values from the API reference
 * (https://developers.google.com/my-business/reference/rest/v4/accounts.locations.localPosts);
 * a value known only from Google's help center or a secondary source says so in its `note`.
 */
import { NETWORK_DISPLAY } from './display'
import { optionField } from './option-fields'
import { FORMATTING } from './formatting'
import type { OptionField, PlatformRules } from './schema'
import { MB, NO_OPTIONS, caption, format, image, onCanvas, sized, inbox } from './shared'

/** What a local post is about: the template the network renders it with. */
export const LOCAL_TOPIC_TYPES = ['STANDARD', 'EVENT', 'OFFER', 'ALERT'] as const
/** The buttons a post may carry (`GET_OFFER` is deprecated: an OFFER post is the way). */
export const LOCAL_CALL_TO_ACTIONS = ['BOOK', 'ORDER', 'SHOP', 'LEARN_MORE', 'SIGN_UP', 'CALL'] as const

export const LOCAL_NET_FIELDS: OptionField[] = [
  optionField(
    'topicType',
    'Post type',
    'enum',
    'STANDARD (an update), EVENT (with a title and a schedule), OFFER (an event with a coupon, a redeem link and terms) or ALERT (a COVID-19 alert: text and a button only; the network may no longer take new ones). Default STANDARD.',
    { values: [...LOCAL_TOPIC_TYPES] },
  ),
  optionField(
    'callToAction',
    'Button',
    'enum',
    'The button under the post. Every button but CALL takes `callToActionUrl`; CALL dials the business phone. Not on OFFER posts.',
    { values: [...LOCAL_CALL_TO_ACTIONS] },
  ),
  optionField('callToActionUrl', 'Button link', 'url', 'Where the button leads; required with every button but CALL.'),
  optionField('eventTitle', 'Event or offer title', 'string', 'Required for EVENT and OFFER posts.'),
  optionField(
    'eventStart',
    'Starts',
    'datetime',
    "Required for EVENT and OFFER posts. The date and time as written (in the business's local time, its offset ignored).",
  ),
  optionField(
    'eventEnd',
    'Ends',
    'datetime',
    "Required for EVENT and OFFER posts; not before `eventStart`. The date and time as written (the business's local time).",
  ),
  optionField('offerCouponCode', 'Coupon code', 'string', 'OFFER posts: a code usable in store or online.'),
  optionField('offerRedeemUrl', 'Redeem link', 'url', 'OFFER posts: where the offer is redeemed online.'),
  optionField('offerTerms', 'Offer terms', 'text', 'OFFER posts: the terms and conditions.'),
]

export const LOCAL_NET_RULES: PlatformRules = {
  platform: 'LOCAL_NET',
  display: NETWORK_DISPLAY.LOCAL_NET,
  name: 'local business listing',
  connections: ['DIRECT_LOGIN', 'SANDBOX'],
  threadModel: false,
  caption: caption(1500, 'characters', {
    note: "The post's summary. 1,500 is the help center's figure; the API reference states no cap and no counting unit. A phone number in the text gets a post refused by the network's content policy.",
  }),
  formatting: FORMATTING.LOCAL_NET,
  title: null,
  thread: null,
  media: {
    allowsTextOnly: true,
    maxItems: 1,
    mixing: false,
    altTextMaxLength: null,
    image: image({
      mimeTypes: ['image/jpeg', 'image/png'],
      maxSizeBytes: 5 * MB,
      minWidth: 250,
      minHeight: 250,
      maxItems: 1,
      note: 'Sent by URL: the network fetches it from our public media URL, so the media store must be reachable from the internet. JPEG or PNG, 10 KB to 5 MB, at least 250 x 250 (help center figures; the API reference states none).',
    }),
    video: null,
    note: 'One photo a post; ALERT posts take none.',
  },
  formats: [format('IMAGE', { mediaKinds: ['image'], maxItems: 1, note: 'A text update, or one photo with it.' })],
  defaultFormat: 'IMAGE',
  recommended: [
    sized('IMAGE', 1200, 900, "4:3: the network crops a post's photo toward it (secondary source)."),
    onCanvas('IMAGE', 'feed_square'),
  ],
  options: { ...NO_OPTIONS, destination: null, fields: LOCAL_NET_FIELDS },
  deleteSupported: true,
  insights: {
    importsPosts: true,
    followers: false,
    postMetrics: [],
    note: 'The per-post insights (localPosts.reportInsights, LOCAL_POST_VIEWS_SEARCH, LOCAL_POST_ACTIONS_CALL_TO_ACTION) were discontinued on 2023-02-20 with no replacement, so none are collected.',
  },
  // Quotas are per project (300 requests a minute); 10 edits a minute per profile is documented for the
  // Business Information API only. The engine retries after a quota refusal (RESOURCE_EXHAUSTED).
  inbox: inbox({ note: 'Local posts take no comments; reviews are not part of the inbox.' }),
  limits: [],
  note: 'One account is one business location. Reviews are read and answered through the same sign-in (not on a route yet).',
}
