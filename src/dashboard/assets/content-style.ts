/**
 * content.css: the working pages' own classes (counters, media grids, crops, the month grid, the
 * heatmap, charts), on the design tokens. Buttons, fields, badges, notices and tables are the shared
 * components' (app.css, loaded after this file, so nothing here overrides them).
 */
export const CONTENT_STYLE = `
.counters { list-style: none; display: flex; flex-wrap: wrap; gap: var(--space-2) var(--space-3); margin: 0; padding: 0; font-size: var(--text-sm); color: var(--color-text-muted); }
.counters .over { color: var(--color-danger); font-weight: 700; }
.counters .unused { color: var(--color-text-muted); opacity: .8; }
.media-picker, .media-grid { list-style: none; display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 12rem), 1fr)); gap: var(--space-3); padding: 0; margin: 0 0 var(--space-4); }
.media-picker img, .media-grid img { object-fit: cover; display: block; max-width: 100%; height: auto; border-radius: var(--radius-sm); }
.media-grid li { border: 1px solid var(--color-border); border-radius: var(--radius-lg); background: var(--color-surface); padding: var(--space-3); min-width: 0; box-shadow: var(--shadow-1); }
.crop-source { max-width: min(100%, 20rem); height: auto; display: block; }
.crops img { object-fit: contain; height: auto; max-width: 100%; }
.caption { white-space: pre-wrap; overflow-wrap: anywhere; }
.calendar { display: grid; grid-template-columns: repeat(7, minmax(0, 1fr)); gap: 1px; background: var(--color-border); border: 1px solid var(--color-border); border-radius: var(--radius-lg); overflow: hidden; }
.calendar .day { background: var(--color-surface); min-height: 7rem; padding: var(--space-1); min-width: 0; }
.calendar .day.outside { background: var(--color-surface-2); color: var(--color-text-muted); }
.calendar .day.today { box-shadow: inset 0 0 0 2px var(--color-accent); }
.calendar .day.drop-target { background: var(--color-accent-soft); }
.calendar .day ul { list-style: none; margin: 0; padding: 0; }
.calendar .post { margin: var(--space-1) 0; padding: var(--space-1); border-left: 3px solid var(--status-scheduled); border-radius: var(--radius-sm); background: var(--color-surface-2); font-size: var(--text-xs); overflow-wrap: anywhere; }
.calendar .post[draggable="true"] { cursor: grab; }
.heatmap td { width: 1.6rem; height: 1.4rem; padding: 0; text-align: center; font-size: var(--text-xs); border: 1px solid var(--color-surface); }
.heat-0 { background: var(--color-surface-2); }
.heat-1 { background: color-mix(in srgb, var(--color-accent) 20%, var(--color-surface)); }
.heat-2 { background: color-mix(in srgb, var(--color-accent) 45%, var(--color-surface)); }
.heat-3 { background: color-mix(in srgb, var(--color-accent) 75%, var(--color-surface)); color: var(--color-accent-contrast); }
.heat-4 { background: var(--color-accent); color: var(--color-accent-contrast); }
.chart { max-width: min(100%, 40rem); height: auto; }
.chart .line { fill: none; stroke: var(--color-accent); stroke-width: 2; }
.chart .axis { stroke: var(--color-text-muted); stroke-width: 1; }
.chart text { font-size: 10px; fill: var(--color-text-muted); }
`
