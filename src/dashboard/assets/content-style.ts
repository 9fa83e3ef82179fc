/** content.css: the working pages' own styles (the layout's app.css styles the frame). */
export const CONTENT_STYLE = `
:focus-visible, input:focus, input:focus-within, select:focus, textarea:focus { outline: 3px solid #1a56db; outline-offset: 2px; }
.muted { color: #4b5563; }
.field { margin: 0.75rem 0; display: flex; flex-direction: column; gap: 0.25rem; max-width: 48rem; }
.check { display: flex; gap: 0.5rem; align-items: center; margin: 0.25rem 0; }
fieldset { border: 1px solid #d1d5db; margin: 1rem 0; padding: 0.75rem; max-width: 48rem; }
textarea, input[type="text"], input[type="url"], input[type="datetime-local"], input[type="time"], select {
  font: inherit; padding: 0.4rem; border: 1px solid #6b7280; border-radius: 4px; }
.field-errors { list-style: none; margin: 0; padding: 0; color: #b91c1c; }
.field-errors .warning { color: #92400e; }
.counters { list-style: none; display: flex; flex-wrap: wrap; gap: 0.75rem; margin: 0; padding: 0; font-size: 0.9rem; }
.counters .over { color: #b91c1c; font-weight: bold; }
.counters .unused { color: #6b7280; }
.actions { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; margin: 1rem 0; }
button { font: inherit; padding: 0.45rem 0.9rem; border: 1px solid #1f2937; border-radius: 4px; background: #1f2937; color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: #1f2937; }
.danger button { background: #b91c1c; border-color: #b91c1c; }
.notice { background: #ecfdf5; border: 1px solid #047857; color: #065f46; padding: 0.5rem; }
.problem { background: #fef2f2; border: 1px solid #b91c1c; color: #991b1b; padding: 0.5rem; }
.badge { display: inline-block; padding: 0 0.4rem; border-radius: 4px; font-size: 0.8rem; background: #e5e7eb; color: #111827; }
.badge-published, .badge-active { background: #d1fae5; color: #065f46; }
.badge-failed, .badge-expired, .badge-disconnected { background: #fee2e2; color: #991b1b; }
.badge-scheduled, .badge-pending { background: #dbeafe; color: #1e40af; }
.badge-publishing { background: #fef3c7; color: #92400e; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border: 1px solid #d1d5db; padding: 0.35rem 0.5rem; text-align: left; vertical-align: top; }
.media-picker, .media-grid { list-style: none; display: flex; flex-wrap: wrap; gap: 0.75rem; padding: 0; }
.media-picker img, .media-grid img { object-fit: cover; display: block; }
.media-grid li { border: 1px solid #d1d5db; padding: 0.5rem; width: 14rem; }
.crop-source { max-width: 20rem; height: auto; display: block; }
.crops img { object-fit: contain; height: auto; }
.caption { white-space: pre-wrap; }
.calendar { display: grid; grid-template-columns: repeat(7, minmax(0, 1fr)); gap: 2px; }
.calendar .day { border: 1px solid #d1d5db; min-height: 7rem; padding: 0.25rem; }
.calendar .day.outside { background: #f9fafb; color: #6b7280; }
.calendar .day.today { border: 2px solid #1a56db; }
.calendar .day.drop-target { background: #eff6ff; }
.calendar .day ul { list-style: none; margin: 0; padding: 0; }
.calendar .post { margin: 0.2rem 0; padding: 0.2rem; border-left: 3px solid #1a56db; background: #f3f4f6; }
.calendar .post[draggable="true"] { cursor: grab; }
.heatmap td { width: 1.6rem; height: 1.4rem; padding: 0; text-align: center; font-size: 0.7rem; }
.heat-0 { background: #f3f4f6; } .heat-1 { background: #dbeafe; } .heat-2 { background: #93c5fd; }
.heat-3 { background: #3b82f6; color: #fff; } .heat-4 { background: #1e3a8a; color: #fff; }
.chart { max-width: 40rem; height: auto; }
.chart .line { fill: none; stroke: #1a56db; stroke-width: 2; }
.chart .axis { stroke: #6b7280; stroke-width: 1; }
.chart text { font-size: 10px; fill: #374151; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.inline { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; }
`
