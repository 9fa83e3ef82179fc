/**
 * The strength estimate behind the password rule: zxcvbn-ts with its common (breached passwords,
 * diceware, keyboard layouts) and English (common words, first names, word sequences) dictionaries
 * (password-dictionaries.ts). It reads a password as a sequence of matches (a dictionary word, a
 * repetition, a sequence, a keyboard walk, a date, random characters) and estimates the guesses an
 * attacker trying them in that order needs.
 *
 * The dictionaries (~0.9 MB compressed, a few tenths of a second to decompress and index) are
 * imported on the first estimate, not when the app loads, so a Worker isolate that never sets a password never pays for
 * them. An estimator holds only those dictionaries, never a password: the app makes one
 * (`Deps.passwordStrength`) and it keeps what it loaded.
 */
import type { Match, ZxcvbnFactory, ZxcvbnResult } from '@zxcvbn-ts/core'

/** zxcvbn's name for the dictionary of the words passed with a check (the user's own). */
export const CONTEXT_DICTIONARY = 'userInputs'
/** The breached-passwords list of the common package (49,233 passwords, most used first). */
export const COMMON_PASSWORDS_DICTIONARY = 'passwords-common'

/**
 * One estimate: zxcvbn's score (0-4), the matches it read the password as (positions in UTF-16
 * units of the first `checkedLength` of them), and its suggestions.
 */
export interface StrengthEstimate {
  score: number
  checkedLength: number
  sequence: Match[]
  suggestions: string[]
}

/** Estimates passwords with the dictionaries it loads on its first estimate. */
export interface StrengthEstimator {
  /** zxcvbn's estimate of the password, knowing the words of its context (name, email, workspace, service). */
  estimate(password: string, contextWords: string[]): Promise<StrengthEstimate>
}

const toEstimate = (result: ZxcvbnResult): StrengthEstimate => ({
  score: result.score,
  checkedLength: result.password.length,
  sequence: result.sequence,
  suggestions: result.feedback.suggestions,
})

/** An estimator that loads the packages on its first estimate (again on the next if that failed) and keeps them. */
export function createStrengthEstimator(): StrengthEstimator {
  let loading: Promise<ZxcvbnFactory> | undefined
  const load = () =>
    (loading ??= import('./password-dictionaries')
      .then((m) => m.createZxcvbn())
      .catch((err: unknown) => {
        loading = undefined
        throw err
      }))
  return {
    async estimate(password, contextWords) {
      return toEstimate((await load()).check(password, contextWords))
    },
  }
}
