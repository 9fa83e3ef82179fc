/** The session's CSRF token, as the page's forms carry it (the hidden `_csrf` field); '' when the page has none. */
export function csrfToken(scope: ParentNode = document): string {
  const field = scope.querySelector<HTMLInputElement>('input[name="_csrf"]')
  return field ? field.value : ''
}
