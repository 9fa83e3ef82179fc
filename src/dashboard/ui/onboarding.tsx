/**
 * The first-run checklist on the workspace's home (the calendar): connect an account, compose a
 * post, schedule one, reach the workspace from code. Each step is ticked from the workspace's data
 * (services/workspace/onboarding.ts) and links to the page that does it; once every step is done the list is
 * no longer shown. A reviewer, who writes no posts, is not shown it.
 */
import { can } from '../../domain/access'
import { type FirstStep, firstStepsProgress } from '../../services/workspace/onboarding'
import { workspacePage } from '../env'
import type { PageContext } from '../pages/shared'

interface StepText {
  title: string
  /** What it gives, one line. */
  why: string
  /** The page that does it, under the workspace. */
  path: string
  /** Whether only owners and admins can take it (a member is told whom to ask). */
  managers?: boolean
}

const STEPS: Record<FirstStep, StepText> = {
  connect: {
    title: 'Connect an account',
    why: 'A network account to publish to (the sandbox network works without one of your own).',
    path: '/accounts',
  },
  compose: {
    title: 'Compose a post',
    why: 'Write it once; each network gets its own preview.',
    path: '/compose',
  },
  schedule: {
    title: 'Schedule a post',
    why: 'Pick a time, or the next free slot of your queue.',
    path: '/compose',
  },
  integrate: {
    title: 'Create an API token or a webhook',
    why: 'Publish from your own tools, or hear when a post is published.',
    path: '/settings/tokens',
    managers: true,
  },
}

/** The checklist, or nothing once every step is done or for a member who cannot take its steps (a reviewer). */
export async function Onboarding(props: { c: PageContext }) {
  const member = props.c.get('member')
  if (!can(member.role, 'write')) return null
  const progress = await firstStepsProgress(props.c.var.deps.db, member.workspaceId)
  if (progress.complete) return null
  const steps = Object.entries(STEPS) as Array<[FirstStep, StepText]>
  const doneCount = steps.filter(([key]) => progress.done[key]).length
  const manages = member.role === 'owner' || member.role === 'admin'
  return (
    <section class="card onboarding" aria-labelledby="onboarding-title">
      <div class="card-header">
        <h2 id="onboarding-title">Get started</h2>
      </div>
      <p class="onboarding-progress">
        <span id="onboarding-progress">
          {doneCount} of {steps.length} steps done.
        </span>
        <progress max={steps.length} value={doneCount} aria-labelledby="onboarding-progress"></progress>
      </p>
      <ol class="onboarding-steps">
        {steps.map(([key, step]) => (
          <OnboardingStep
            step={step}
            stepKey={key}
            done={progress.done[key]}
            href={!step.managers || manages ? workspacePage(member, step.path) : null}
          />
        ))}
      </ol>
    </section>
  )
}

/** One step: its title (a link to the page that takes it, unless a member cannot), why, and a "Done" or "To do" badge. */
function OnboardingStep(props: { step: StepText; stepKey: FirstStep; done: boolean; href: string | null }) {
  const { step, done, href } = props
  return (
    <li class={done ? 'onboarding-step done' : 'onboarding-step'} data-step={props.stepKey}>
      <span class="onboarding-text">
        {href ? (
          <a class="onboarding-title" href={href}>
            {step.title}
          </a>
        ) : (
          <span class="onboarding-title">{step.title}</span>
        )}
        <span class="hint">{href ? step.why : 'Ask an owner or admin of the workspace to do this.'}</span>
      </span>
      <span class={done ? 'badge badge-published' : 'badge badge-draft'}>{done ? 'Done' : 'To do'}</span>
    </li>
  )
}
