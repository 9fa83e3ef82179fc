/** The calendar's own styles (week time grid, month chips, list view). */
export const CALENDAR_CSS = ``
