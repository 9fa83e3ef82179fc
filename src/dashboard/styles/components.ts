/** The shared components' styles (buttons, fields, chips, badges, cards, tabs, dialogs, toasts, empty states, skeletons). */
export const COMPONENTS_CSS = ``
