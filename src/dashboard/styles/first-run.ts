/** The error pages (ui/error-view.tsx), the first-run checklist (ui/onboarding.tsx) and the composer check's notice. Tokens only. */
export const FIRST_RUN_CSS = `
.error-view-status { margin: 0 0 var(--space-2); font-size: var(--text-xs); font-weight: 600; letter-spacing: .06em; text-transform: uppercase; color: var(--color-text-muted); }
.error-view .actions { flex-direction: column; align-items: stretch; }
.error-view .actions .btn { width: 100%; }
.error-view .actions:last-child { margin-bottom: 0; }
.error-view-request { margin-top: var(--space-4); padding: var(--space-3); font-size: var(--text-sm); color: var(--color-text-muted); background: var(--color-surface-2); border-radius: var(--radius-md); overflow-wrap: anywhere; }
.error-view-request code { color: var(--color-text); }
.onboarding { margin: 0 0 var(--space-5); }
.onboarding-progress { display: flex; flex-wrap: wrap; align-items: center; gap: var(--space-2) var(--space-3); margin: 0 0 var(--space-4); color: var(--color-text-muted); font-size: var(--text-sm); }
.onboarding-progress progress { flex: 1 1 8rem; max-width: 16rem; height: .5rem; accent-color: var(--color-accent); }
.onboarding-steps { list-style: none; margin: 0; padding: 0; display: grid; gap: var(--space-2); }
.onboarding-step {
  display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: var(--space-2) var(--space-4);
  padding: var(--space-3); border: 1px solid var(--color-border); border-radius: var(--radius-md); background: var(--color-surface);
}
.onboarding-step.done { background: var(--color-surface-2); }
.onboarding-step.done .onboarding-title { color: var(--color-text-muted); text-decoration: line-through; text-decoration-thickness: 1px; }
.onboarding-text { flex: 1 1 14rem; min-width: 0; }
.onboarding-title { display: block; font-weight: 600; }
.onboarding-text .hint { display: block; }
.check-problem { display: block; margin: 0 0 var(--space-4); padding: var(--space-3) var(--space-4); border: 1px solid var(--color-border); border-left: 4px solid var(--color-warning); border-radius: var(--radius-md); background: var(--color-warning-soft); color: var(--color-text); }
.check-problem[hidden] { display: none; }
`
