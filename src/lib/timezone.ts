/** True for an IANA zone name the runtime knows (`Europe/Berlin`, `UTC`). */
export function isValidTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone })
    return true
  } catch {
    return false
  }
}
