/**
 * How each network is shown to people: a human name, a colour and a mark drawn for this project
 * (24x24 line glyphs of generic shapes, no network's brand logo). The registry carries these as
 * `display`, so the API, the dashboard and MCP show every network the same way.
 *
 * Colour rule: every `color` carries white text at 4.5:1 or more (`foreground` is white) and stands
 * at 3:1 or more against the dark theme's surfaces, so a mark or border in that colour is legible in
 * both themes.
 */
import type { PlatformId } from '../vocabulary'
import type { NetworkDisplay } from './schema'

const WHITE = '#ffffff'

const show = (name: string, color: string, mark: string): NetworkDisplay => ({ name, color, foreground: WHITE, mark })

/** Each network's display, keyed by platform id. Marks are SVG path data drawn as a 2-unit round stroke. */
export const NETWORK_DISPLAY: Record<PlatformId, NetworkDisplay> = {
  PHOTO_NET: show('Photo', '#c0358a', 'M3 5h18v14H3zM3 16l5-5 4 4 3-3 6 6M15.5 8.5h.01'),
  SHORTVIDEO_NET: show(
    'Short video',
    '#0c7f76',
    'M8 2h8a2 2 0 0 1 2 2v16a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2zM10.5 9v6l4.5-3z',
  ),
  MICROBLOG_NET: show('Microblog', '#1a76b8', 'M4 4h16v12h-9l-5 4v-4H4zM8 8h8M8 12h5'),
  MESSAGING_NET: show('Messaging', '#007b91', 'M3 6h18v12H3zM3 6l9 7 9-7'),
  SOCIALGRAPH_NET: show(
    'Social graph',
    '#4c5fd5',
    'M12 3.5a2.5 2.5 0 1 0 0 5a2.5 2.5 0 1 0 0-5zM6 15.5a2.5 2.5 0 1 0 0 5a2.5 2.5 0 1 0 0-5zM18 15.5a2.5 2.5 0 1 0 0 5a2.5 2.5 0 1 0 0-5zM10.9 8.3l-3.8 7.4M13.1 8.3l3.8 7.4M8.5 18h7',
  ),
  PROFESSIONAL_NET: show('Professional', '#3a6cbb', 'M3 8h18v12H3zM9 8V5h6v3M3 13h18M12 12v2'),
  TEXTTHREAD_NET: show(
    'Text threads',
    '#616a7a',
    'M6 3a2 2 0 1 0 0 4a2 2 0 1 0 0-4zM6 7v10M6 17a2 2 0 1 0 0 4a2 2 0 1 0 0-4zM11 4h9M11 7h6M11 18h9M11 21h6',
  ),
  OPENPROTOCOL_NET: show(
    'Open protocol',
    '#2d6fd8',
    'M12 2l8.7 5v10L12 22l-8.7-5V7zM12 9a3 3 0 1 0 0 6a3 3 0 1 0 0-6z',
  ),
  VIDEOSHARE_NET: show('Video sharing', '#d12c2c', 'M3 5h18v14H3zM7 5v14M17 5v14M3 9.5h4M3 14.5h4M17 9.5h4M17 14.5h4'),
  PINBOARD_NET: show('Pinboard', '#c3284f', 'M9 3h6l-1 6 3 3v2H7v-2l3-3zM12 14v7'),
  FEDERATED_NET: show(
    'Federated',
    '#7450d0',
    'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18zM3 12h18M12 3c3.5 3.5 3.5 14.5 0 18M12 3c-3.5 3.5-3.5 14.5 0 18',
  ),
  CHAT_NET: show('Chat', '#2f7f33', 'M3 4h13v9H8l-5 4zM9 16v1h8l4 3V8h-3'),
  RELAY_NET: show(
    'Relay',
    '#a65c00',
    'M5 12a2 2 0 1 0 4 0a2 2 0 1 0-4 0zM15 5a2 2 0 1 0 4 0a2 2 0 1 0-4 0zM15 19a2 2 0 1 0 4 0a2 2 0 1 0-4 0zM8.8 11l6.4-4.5M8.8 13l6.4 4.5M17 7v10',
  ),
  COMMUNITY_NET: show(
    'Community',
    '#b4531f',
    'M12 4a2.5 2.5 0 1 0 0 5a2.5 2.5 0 1 0 0-5zM5 8a2 2 0 1 0 0 4a2 2 0 1 0 0-4zM19 8a2 2 0 1 0 0 4a2 2 0 1 0 0-4zM7.5 19a4.5 4.5 0 0 1 9 0zM2 18a3 3 0 0 1 4-2.8M22 18a3 3 0 0 0-4-2.8',
  ),
  BLOG_NET: show('Blog', '#4f6d94', 'M5 3h10l4 4v14H5zM15 3v4h4M8 11h8M8 14h8M8 17h5'),
  LOCAL_NET: show('Local', '#a65d00', 'M12 21s-7-6-7-11a7 7 0 0 1 14 0c0 5-7 11-7 11zM9 8h6v4H9z'),
  WORKCHAT_NET: show('Workchat', '#9350a8', 'M4 4h16v11H10l-4 4v-4H4zM9 7.5l-1 5M13 7.5l-1 5M7.5 9h7M7 11h7'),
  FORUM_NET: show('Forum', '#c2410c', 'M4 5h16v10H10l-4 4v-4H4zM8 9l2 2-2 2M12 13h4'),
  SITE_NET: show('Site', '#21759b', 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18zM7 8l3 9 2-6 2 6 3-9M6 8h3M15 8h3'),
  DEVBLOG_NET: show('Devblog', '#4a5be8', 'M4 3h16v18H4zM8 9l-2 3 2 3M16 9l2 3-2 3M13 8l-2 8'),
}
