/** The post page's and the analytics page's own styles. */
export const POST_CSS = ``
