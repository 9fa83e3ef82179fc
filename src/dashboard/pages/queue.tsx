/**
 * The queue slots editor (`/queue`): the weekly times `action: queue` fills, in the workspace
 * zone, and the next free one; saved through the service of `PUT /v1/queue-slots`.
 */
import type { Hono } from 'hono'
import { ReplaceQueueScheduleSchema } from '../../schemas/queue-slots'
import { getQueueSchedule, replaceQueueSchedule } from '../../services/queue-slots'
import { type DashboardEnv, workspacePage } from '../env'
import { Layout } from '../layout'
import { PageHeader } from '../ui'
import { back, CsrfField, frame, Notice, refusalOf, ZonedTime } from './shared'
import { permitted } from '../workspace'

/** Weekday names by the API's numbers (0 = Sunday). */
export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

/** Empty rows offered for new slots. */
const NEW_ROWS = 3

/** Registers the queue slots editor. */
export function registerQueue(app: Hono<DashboardEnv>): void {
  app.get('/queue', async (c) => {
    const { member, csrfToken } = frame(c)
    const schedule = await getQueueSchedule(c.var.deps.db, member.workspaceId, c.var.deps.clock.now())
    const rows = [
      ...schedule.slots.map((s) => ({ weekday: s.weekday, time: s.time })),
      ...Array.from({ length: NEW_ROWS }, () => ({ weekday: 1, time: '' })),
    ]
    return c.html(
      <Layout title="Queue" member={member} csrfToken={csrfToken} current="queue">
        <PageHeader
          title="Queue slots"
          description="The weekly times a post added to the queue takes, the first free one first."
        />
        <Notice c={c} />
        <p class="lead">
          Times are in the workspace zone, {schedule.timezone}. Next free slot:{' '}
          {schedule.nextFreeSlot ? <ZonedTime at={schedule.nextFreeSlot} timeZone={schedule.timezone} /> : 'none'}
        </p>
        <form method="post" action={workspacePage(member, '/queue')} class="queue-form">
          <CsrfField token={csrfToken} />
          <table class="cards-on-phone slot-table">
            <caption>Weekly slots (leave the time empty or tick Remove to drop a row)</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Time</th>
                <th scope="col">Remove</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, i) => (
                <tr>
                  <td data-label="Day">
                    <label for={`weekday-${i}`} class="visually-hidden">
                      Day of slot {i + 1}
                    </label>
                    <select name={`weekday.${i}`} id={`weekday-${i}`}>
                      {WEEKDAY_NAMES.map((name, n) => (
                        <option value={String(n)} selected={row.weekday === n}>
                          {name}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td data-label="Time">
                    <label for={`time-${i}`} class="visually-hidden">
                      Time of slot {i + 1}
                    </label>
                    <input type="time" name={`time.${i}`} id={`time-${i}`} value={row.time} />
                  </td>
                  <td class="check-cell">
                    <input type="checkbox" name={`remove.${i}`} value="1" id={`remove-${i}`} />
                    <label for={`remove-${i}`}>Remove slot {i + 1}</label>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <button type="submit">Save slots</button>
        </form>
      </Layout>,
    )
  })

  app.post('/queue', permitted('publish'), async (c) => {
    const { member } = frame(c)
    const form = await c.req.parseBody()
    const slots: Array<{ weekday: number; time: string }> = []
    for (const name of Object.keys(form)) {
      const m = /^time\.(\d+)$/.exec(name)
      const time = m ? form[name] : undefined
      if (!m || typeof time !== 'string' || time === '' || form[`remove.${m[1]}`] === '1') continue
      slots.push({ weekday: Number(form[`weekday.${m[1]}`]), time: time.slice(0, 5) })
    }
    const page = workspacePage(member, '/queue')
    const parsed = ReplaceQueueScheduleSchema.safeParse({ slots })
    if (!parsed.success) return back(c, page, { problem: 'Each slot needs a day and a time (HH:MM).' })
    try {
      await replaceQueueSchedule(c.var.deps.db, member.workspaceId, parsed.data, c.var.deps.clock.now())
    } catch (err) {
      return back(c, page, { problem: refusalOf(err).message })
    }
    return back(c, page, { notice: 'Queue slots saved.' })
  })
}
