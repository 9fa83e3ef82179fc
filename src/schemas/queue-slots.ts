import { z } from '@hono/zod-openapi'
import { MAX_QUEUE_SLOTS } from '../services/queue-slots'

const weekday = z.number().int().min(0).max(6).openapi({ description: '0 = Sunday ... 6 = Saturday.', example: 1 })
const time = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM, 00:00 to 23:59')
  .openapi({ description: 'Local time in the workspace zone, 24-hour `HH:MM`.', example: '09:30' })

export const QueueScheduleSchema = z
  .object({
    timezone: z.string().openapi({ example: 'Europe/Berlin' }),
    slots: z.array(z.object({ id: z.string(), weekday, time })),
    nextFreeSlot: z
      .string()
      .nullable()
      .openapi({
        format: 'date-time',
        description:
          'The next slot occurrence after now that no post holds: the time `action: queue` gives a post created ' +
          'now. Null when no slot is configured (or every occurrence of the next 52 weeks is taken).',
        example: '2026-11-23T08:30:00.000Z',
      }),
  })
  .openapi('QueueSchedule')

export const ReplaceQueueScheduleSchema = z
  .object({
    timezone: z
      .string()
      .optional()
      .openapi({ description: 'IANA zone; changes the workspace time zone too. Omit to keep it.' }),
    slots: z.array(z.object({ weekday, time })).max(MAX_QUEUE_SLOTS),
  })
  .openapi('ReplaceQueueSchedule', {
    example: {
      timezone: 'Europe/Berlin',
      slots: [
        { weekday: 1, time: '09:30' },
        { weekday: 3, time: '17:00' },
      ],
    },
  })
