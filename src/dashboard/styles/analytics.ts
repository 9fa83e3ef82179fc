/** The analytics page's own styles (charts, totals, comparisons). */
export const ANALYTICS_CSS = ``
