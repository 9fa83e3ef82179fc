/**
 * What the accounts page says when a connection comes back refused. The hosted connect flow sends the
 * member back with `error=<code>` (and a `message` meant for API callers); the page says its own words
 * for the code and never repeats text from the address, so a crafted link cannot make it say anything.
 */
const CONNECT_REFUSALS: Record<string, string> = {
  access_denied: 'The network says access was not granted, so no account was connected.',
  authorization_failed: 'The network did not complete the sign-in. Try connecting again.',
  exchange_failed: 'The network refused to finish the sign-in. Try connecting again in a moment.',
  invalid_credentials: 'The network refused the credentials given. Check them and connect again.',
  invalid_instance: 'That server address is not one this service can connect to.',
  instance_unreachable: 'That server did not answer. Check the address and try again.',
  instance_refused: 'That server refused to register this service as an app.',
  identity_mismatch: 'The network signed in a different account from the one being reconnected; nothing changed.',
  nothing_chosen: 'No account was chosen, so nothing was connected.',
  link_used: 'That connect link was already used. Start again from this page.',
  link_unknown: 'That connect link has expired or does not exist. Start again from this page.',
  state_unknown: 'That sign-in has expired. Start again from this page.',
  state_used: 'That sign-in was already finished. Start again from this page if an account is missing.',
  account_gone: 'The account being reconnected no longer exists in this workspace.',
  no_client: 'This service is not set up to connect that network yet.',
  not_available: 'That network cannot be connected this way here.',
}

/** The sentence for a refusal code; an unknown code gets a general one (no letter of the address is repeated). */
export function connectRefusalMessage(code: string): string {
  return Object.hasOwn(CONNECT_REFUSALS, code)
    ? CONNECT_REFUSALS[code]!
    : 'The account was not connected, for a reason this page does not recognise. Try connecting again.'
}
