/** Content negotiation of the operations that also answer CSV (`GET /v1/analytics`, `GET /v1/activity`). */

/** Whether the client asked for CSV rather than JSON (the first of the two it names). */
export function wantsCsv(accept: string | undefined): boolean {
  if (!accept) return false
  const types = accept.split(',').map((t) => t.split(';')[0]!.trim().toLowerCase())
  const csv = types.indexOf('text/csv')
  const json = types.indexOf('application/json')
  return csv >= 0 && (json < 0 || csv < json)
}
