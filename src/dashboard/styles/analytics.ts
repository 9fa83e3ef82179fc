/** The analytics page's own styles: period picker, totals, SVG charts and their tables, network bars, top posts. */
export const ANALYTICS_CSS = `
.analytics-header, .analytics-section { color: var(--color-text); }
.analytics-header { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: var(--space-3); }
.analytics-header h1 { margin: 0; }
.period-picker { display: inline-flex; border: 1px solid var(--color-border); border-radius: var(--radius-full); overflow: hidden;
  background: var(--color-surface); }
.period-picker a { display: inline-flex; align-items: center; min-height: var(--touch); padding: 0 var(--space-4);
  color: var(--color-text); text-decoration: none; font-size: var(--text-sm); }
.period-picker a + a { border-left: 1px solid var(--color-border); }
.period-picker a[aria-current="page"] { background: var(--color-accent); color: var(--color-accent-contrast); font-weight: 600; }
.analytics-section { margin-top: var(--space-5); min-width: 0; }
.analytics-section h2 { font-size: var(--text-lg); margin: 0 0 var(--space-3); }
.analytics-totals { display: grid; grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); gap: var(--space-3); margin: 0; }
.analytics-total { background: var(--color-surface); border: 1px solid var(--color-border); border-radius: var(--radius-lg);
  padding: var(--space-3) var(--space-4); box-shadow: var(--shadow-1); }
.analytics-total dt { font-size: var(--text-sm); color: var(--color-text-muted); }
.analytics-total dd { margin: 0; }
.analytics-total-value { font-size: var(--text-2xl); font-weight: 700; font-variant-numeric: tabular-nums; }
.analytics-total-hint { font-size: var(--text-xs); color: var(--color-text-muted); }
.analytics-charts { display: grid; gap: 0 var(--space-5); grid-template-columns: minmax(0, 1fr); }
@media (min-width: 64rem) { .analytics-charts { grid-template-columns: repeat(2, minmax(0, 1fr)); } }
.chart-figure { margin: 0; background: var(--color-surface); border: 1px solid var(--color-border); border-radius: var(--radius-lg);
  padding: var(--space-3); box-shadow: var(--shadow-1); min-width: 0; }
.chart-title { font-weight: 600; font-size: var(--text-sm); margin-bottom: var(--space-2); }
.chart-figure svg.chart { display: block; width: 100%; max-width: 40rem; margin: 0 auto; height: auto; overflow: visible; }
.chart-figure svg.chart .chart-tick { font-size: 16px; fill: var(--color-text-muted); font-family: var(--font-sans); }
.chart-figure svg.chart .chart-grid { stroke: var(--color-border); stroke-width: 1; stroke-dasharray: 2 3; }
.chart-figure svg.chart .chart-axis { stroke: var(--color-text-muted); stroke-width: 1; }
.chart-figure svg.chart .chart-bar { fill: var(--color-accent); }
.chart-figure svg.chart .chart-bar:hover { fill: var(--color-accent-hover); }
.chart-figure svg.chart .chart-line { fill: none; stroke: var(--series-colour, var(--color-accent)); stroke-width: 2.5;
  stroke-linejoin: round; stroke-linecap: round; }
.chart-figure svg.chart .chart-point { fill: var(--color-surface); stroke: var(--series-colour, var(--color-accent)); stroke-width: 2; }
.chart-figure svg.chart .chart-point:hover { fill: var(--series-colour, var(--color-accent)); }
.chart-series-1 { --series-colour: var(--color-accent); }
.chart-series-2 { --series-colour: var(--status-published); }
.chart-series-3 { --series-colour: var(--status-publishing); }
.chart-series-4 { --series-colour: var(--status-failed); }
.chart-series-5 { --series-colour: var(--color-info); }
.chart-series-6 { --series-colour: var(--status-draft); }
@media (max-width: 40rem) { .chart-figure svg.chart .chart-tick { font-size: 19px; } }
.chart-legend { list-style: none; margin: 0 0 var(--space-2); padding: 0; display: flex; flex-wrap: wrap; gap: var(--space-1) var(--space-4);
  font-size: var(--text-sm); color: var(--color-text-muted); }
.chart-legend li { display: inline-flex; align-items: center; gap: var(--space-2); overflow-wrap: anywhere; }
.chart-swatch { width: .9rem; height: .25rem; border-radius: var(--radius-full); background: var(--series-colour); flex: none; }
.top-post-account { display: inline-flex; flex-wrap: wrap; align-items: center; gap: var(--space-2); }
.chart-note { font-size: var(--text-sm); color: var(--color-text-muted); margin: var(--space-2) 0 0; }
.chart-data { margin-top: var(--space-2); font-size: var(--text-sm); }
.chart-data summary { cursor: pointer; min-height: var(--touch); display: flex; align-items: center; color: var(--color-accent); }
.chart-table { margin: var(--space-2) 0 0; font-variant-numeric: tabular-nums; }
.table-scroll { overflow-x: auto; max-width: 100%; }
.empty-note { background: var(--color-surface-2); border: 1px dashed var(--color-border); border-radius: var(--radius-lg);
  padding: var(--space-4); color: var(--color-text-muted); margin: 0; }
.network-bars { list-style: none; margin: 0; padding: 0; display: grid; gap: var(--space-3); }
.network-bar { display: grid; gap: var(--space-1) var(--space-3); align-items: center;
  grid-template-columns: minmax(8rem, 12rem) minmax(0, 1fr); }
.network-bar-name { font-weight: 600; display: inline-flex; align-items: center; gap: var(--space-2); }
.network-bar-track { width: 100%; height: .9rem; display: block; }
.network-bar-bg { fill: var(--color-surface-2); }
.network-bar-fill { fill: var(--network, var(--color-accent)); }
.network-bar-figures { grid-column: 2; font-size: var(--text-sm); color: var(--color-text-muted); }
@media (max-width: 40rem) { .network-bar { grid-template-columns: minmax(0, 1fr); } .network-bar-figures { grid-column: 1; } }
.top-posts td.num, .top-posts th.num { text-align: right; font-variant-numeric: tabular-nums; }
.top-posts a { display: inline-flex; align-items: center; min-height: var(--touch); overflow-wrap: anywhere; }
@media (max-width: 40rem) { .top-posts td.num { text-align: left; } }
.analytics-filters { display: flex; flex-wrap: wrap; gap: var(--space-3); align-items: end; margin: var(--space-3) 0 var(--space-2); }
.analytics-filters label { display: grid; gap: 2px; font-size: var(--text-xs); font-weight: 600; color: var(--color-text-muted);
  text-transform: uppercase; letter-spacing: .04em; }
.analytics-filters input, .analytics-filters select { min-height: var(--touch); width: auto; max-width: 14rem; text-transform: none; letter-spacing: normal; }
@media (max-width: 40rem) {
  .analytics-filters { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); }
  .analytics-filters input, .analytics-filters select { width: 100%; max-width: none; }
}
`
