/**
 * What a new password must be, after NIST SP 800-63B's rules for memorized secrets: long enough
 * (counted in Unicode code points after NFKC normalization), any printable character including
 * spaces, no composition rules (no "a digit and a symbol"), and refused when it is on a list of
 * breached passwords, repetitive or sequential, built from words of its context, or guessed too
 * soon by a strength estimate (zxcvbn-ts, see password-strength.ts). A refusal says why in words a
 * person can act on, with the estimator's suggestion.
 */
import {
  COMMON_PASSWORDS_DICTIONARY,
  CONTEXT_DICTIONARY,
  type StrengthEstimate,
  type StrengthEstimator,
} from './password-strength'

/** Shortest password accepted (NIST SP 800-63B's minimum for a password chosen by its user). */
export const MIN_PASSWORD_LENGTH = 8
/** Longest password accepted (NIST asks for at least 64); a cap bounds the work per request. */
export const MAX_PASSWORD_LENGTH = 256
/**
 * The lowest zxcvbn score accepted: 3 is "safely unguessable" (at least 10^8 guesses), which the
 * estimator's authors give as the bar for a password that must resist more than a throttled attack.
 */
export const MIN_STRENGTH_SCORE = 3
/** This service's name, in the forms a password might borrow it. */
export const SERVICE_NAME_WORDS = ['Social Publishing API', 'social publishing', 'socialpublishing', 'sps']

export type PasswordRefusalReason =
  | 'too_short'
  | 'too_long'
  | 'not_printable'
  | 'only_whitespace'
  | 'common'
  | 'common_variant'
  | 'repetitive'
  | 'sequential'
  | 'keyboard_pattern'
  | 'context'
  | 'too_guessable'

/** Why a password is refused: a reason to test against, and the sentence shown beside the field. */
export interface PasswordRefusal {
  reason: PasswordRefusalReason
  message: string
}

/** The words a password must not be built from: whose it is, where it is used. */
export interface PasswordContext {
  email?: string
  name?: string
  workspaceName?: string
}

/** The password as it is checked and hashed: NFKC, so that the same characters typed differently match. */
export const normalizePassword = (password: string): string => password.normalize('NFKC')

/** Its length in Unicode code points (an emoji or a CJK character counts one). */
export const passwordLength = (password: string): number => [...normalizePassword(password)].length

type ContextSource = 'name' | 'email' | 'workspace' | 'service'

const CONTEXT_LABELS: Record<ContextSource, string> = {
  name: 'your name',
  email: 'your email address',
  workspace: 'the workspace name',
  service: 'the name of this service',
}

/** Each context word (the whole value and its words of 3 characters or more), lower-cased, with its source. */
function contextWords(context: PasswordContext): Map<string, ContextSource> {
  const words = new Map<string, ContextSource>()
  const add = (value: string | undefined, source: ContextSource) => {
    const text = normalizePassword(value ?? '')
      .trim()
      .toLowerCase()
    if (!text) return
    for (const word of [text, text.replace(/[^\p{L}\p{N}]+/gu, ''), ...text.split(/[^\p{L}\p{N}]+/u)])
      if ([...word].length >= 3 && !words.has(word)) words.set(word, source)
  }
  add(context.name, 'name')
  add(context.email?.split('@')[0], 'email')
  add(context.workspaceName, 'workspace')
  for (const word of SERVICE_NAME_WORDS) add(word, 'service')
  return words
}

const refusal = (reason: PasswordRefusalReason, message: string): PasswordRefusal => ({ reason, message })

/** The refusals that need no estimate: length, characters, spaces only. */
function shapeRefusal(secret: string): PasswordRefusal | null {
  const length = [...secret].length
  if (length < MIN_PASSWORD_LENGTH)
    return refusal(
      'too_short',
      `Use at least ${MIN_PASSWORD_LENGTH} characters (this one has ${length}). A few unrelated words make a long password that is easy to remember.`,
    )
  if (length > MAX_PASSWORD_LENGTH) return refusal('too_long', `Use at most ${MAX_PASSWORD_LENGTH} characters.`)
  if (/[\p{Cc}\p{Cs}]/u.test(secret))
    return refusal(
      'not_printable',
      'Use printable characters only: letters, digits, symbols and spaces (no tabs, line breaks or other control characters).',
    )
  if (/^\s+$/u.test(secret))
    return refusal(
      'only_whitespace',
      'A password made only of spaces is easy to guess; use words or other characters too.',
    )
  return null
}

const covers = (match: { i: number; j: number }, length: number) => match.i === 0 && match.j === length - 1
const charactersOf = (matches: Array<{ i: number; j: number }>) => matches.reduce((n, m) => n + m.j - m.i + 1, 0)

/** A match from a dictionary (by its name), if the estimate read the password with one. */
const dictionaryMatches = (estimate: StrengthEstimate, dictionary: string) =>
  estimate.sequence.filter((m) => m.pattern === 'dictionary' && m.dictionaryName === dictionary)

/** Refused whatever the score: a breached password as it is, or nothing but a repetition, sequence or keyboard walk. */
function patternRefusal(estimate: StrengthEstimate, length: number): PasswordRefusal | null {
  const common = dictionaryMatches(estimate, COMMON_PASSWORDS_DICTIONARY)
  if (common.some((m) => covers(m, length) && !m.l33t && !m.reversed))
    return refusal('common', 'This password is among the most common ones; choose another.')
  const patterns = new Set(estimate.sequence.map((m) => m.pattern))
  const only = (pattern: string) => patterns.size === 1 && patterns.has(pattern)
  if (only('repeat'))
    return refusal('repetitive', 'This password repeats characters or words (like "aaaa" or "abcabc"); choose another.')
  if (only('sequence'))
    return refusal('sequential', 'This password is a sequence (like "abcd" or "1234"); choose another.')
  if (only('spatial'))
    return refusal('keyboard_pattern', 'This password is a row or pattern of keys (like "qwerty"); choose another.')
  return null
}

/** Built from its context: context words make up half of it or more, or it is weak and uses one. */
function contextRefusal(
  estimate: StrengthEstimate,
  length: number,
  words: Map<string, ContextSource>,
): PasswordRefusal | null {
  const used = dictionaryMatches(estimate, CONTEXT_DICTIONARY)
  if (used.length === 0) return null
  if (estimate.score >= MIN_STRENGTH_SCORE && charactersOf(used) * 2 < length) return null
  const sources = [...new Set(used.map((m) => words.get(String(m.matchedWord)) ?? 'service'))]
  const named = sources.map((s) => CONTEXT_LABELS[s]).join(' and ')
  return refusal(
    'context',
    `This password is built from ${named}, which anyone who knows them would try first; choose one that does not use them.`,
  )
}

/** The reason a password weaker than the bar is refused, by what makes it weak. */
function weaknessRefusal(estimate: StrengthEstimate, length: number): PasswordRefusal | null {
  if (estimate.score >= MIN_STRENGTH_SCORE) return null
  if (charactersOf(dictionaryMatches(estimate, COMMON_PASSWORDS_DICTIONARY)) * 2 >= length)
    return refusal(
      'common_variant',
      'This password is a common one with small changes (like "p@ssw0rd" or "password1"), which are tried first; choose another.',
    )
  return refusal(
    'too_guessable',
    'This password is too easy to guess: programs that try common words, names, dates and patterns would find it quickly.',
  )
}

const withSuggestions = (found: PasswordRefusal, estimate: StrengthEstimate): PasswordRefusal => ({
  ...found,
  message: [found.message, ...estimate.suggestions].join(' '),
})

/**
 * Why this password may not be set, or null when it may, by the estimator's reading of it. Pure:
 * the same password and context give the same answer.
 */
export async function passwordRefusal(
  estimator: StrengthEstimator,
  password: string,
  context: PasswordContext = {},
): Promise<PasswordRefusal | null> {
  const secret = normalizePassword(password)
  const shape = shapeRefusal(secret)
  if (shape) return shape
  const words = contextWords(context)
  const estimate = await estimator.estimate(secret, [...words.keys()])
  const length = estimate.checkedLength
  const found =
    patternRefusal(estimate, length) ?? contextRefusal(estimate, length, words) ?? weaknessRefusal(estimate, length)
  return found ? withSuggestions(found, estimate) : null
}
