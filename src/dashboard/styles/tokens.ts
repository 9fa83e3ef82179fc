/**
 * The design tokens every dashboard style reads: colour, spacing, type scale, radius, elevation,
 * and the light and dark themes. The dark theme follows `prefers-color-scheme` unless the member
 * chose one (`data-theme="light"|"dark"` on the root element).
 */
const LIGHT = `
  --color-bg: #f6f7f9; --color-surface: #ffffff; --color-surface-2: #eef0f3; --color-border: #d4d8df;
  --color-text: #1b1f24; --color-text-muted: #4e5766; --color-accent: #2251cc; --color-accent-hover: #1a3fa3;
  --color-accent-contrast: #ffffff; --color-accent-soft: #e6edfc; --color-focus: #f4b400;
  --color-danger: #b42318; --color-danger-soft: #fdecea; --color-success: #1e6b33; --color-success-soft: #e7f4ea;
  --color-warning: #8a5a00; --color-warning-soft: #fdf3dc; --color-info: #1e4fa8; --color-info-soft: #e6eefb;
  --status-draft: #5b6472; --status-scheduled: #2251cc; --status-publishing: #8a5a00;
  --status-published: #1e6b33; --status-failed: #b42318;
  --status-in-review: #6a3fc1; --status-approved: #0b6b66; --status-changes-requested: #a3246b;
  --shadow-1: 0 1px 2px rgb(16 24 40 / 8%); --shadow-2: 0 4px 12px rgb(16 24 40 / 12%);
  --shadow-3: 0 12px 32px rgb(16 24 40 / 18%);
  color-scheme: light;`

const DARK = `
  --color-bg: #0f1217; --color-surface: #171b22; --color-surface-2: #202631; --color-border: #343c4a;
  --color-text: #e7eaf0; --color-text-muted: #a6afbf; --color-accent: #7ea2ff; --color-accent-hover: #a3bdff;
  --color-accent-contrast: #0b1020; --color-accent-soft: #1d2a4d; --color-focus: #f4b400;
  --color-danger: #ff8a80; --color-danger-soft: #3a1a1a; --color-success: #7bd88f; --color-success-soft: #15301d;
  --color-warning: #f2c46d; --color-warning-soft: #3a2d12; --color-info: #8fb4ff; --color-info-soft: #172544;
  --status-draft: #a6afbf; --status-scheduled: #7ea2ff; --status-publishing: #f2c46d;
  --status-published: #7bd88f; --status-failed: #ff8a80;
  --status-in-review: #c3a6ff; --status-approved: #5fd3c6; --status-changes-requested: #ff9ccf;
  --shadow-1: 0 1px 2px rgb(0 0 0 / 40%); --shadow-2: 0 4px 12px rgb(0 0 0 / 45%);
  --shadow-3: 0 12px 32px rgb(0 0 0 / 55%);
  color-scheme: dark;`

const SCALE = `
  --space-1: .25rem; --space-2: .5rem; --space-3: .75rem; --space-4: 1rem; --space-5: 1.5rem;
  --space-6: 2rem; --space-7: 3rem; --space-8: 4rem;
  --font-sans: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; --font-mono: ui-monospace, monospace;
  --text-xs: .75rem; --text-sm: .875rem; --text-md: 1rem; --text-lg: 1.125rem; --text-xl: 1.375rem; --text-2xl: 1.75rem;
  --radius-sm: 4px; --radius-md: 8px; --radius-lg: 12px; --radius-full: 999px;
  --touch: 44px; --content-width: 80rem;`

export const TOKENS_CSS = `
:root {${SCALE}${LIGHT}
}
@media (prefers-color-scheme: dark) {
  :root:not([data-theme="light"]) {${DARK}
  }
}
:root[data-theme="dark"] {${DARK}
}
`
