/** The composer's own styles (editor, previews, media picker). */
export const COMPOSER_CSS = ``
