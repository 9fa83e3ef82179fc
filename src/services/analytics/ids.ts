import { randomBase62 } from '../../lib/ids'

/** Metric snapshots are internal rows, never named in the API; `ms_` + 128 random bits. */
export const newMetricSnapshotId = (): string => `ms_${randomBase62(22)}`
