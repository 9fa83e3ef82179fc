/**
 * The strength estimate behind the password rule: zxcvbn-ts with its common (breached passwords,
 * diceware, keyboard layouts) and English (words, names, Wikipedia) dictionaries. It reads a
 * password as a sequence of matches (a dictionary word, a repetition, a sequence, a keyboard walk,
 * a date, random characters) and estimates the guesses an attacker trying them in that order needs.
 *
 * The packages (~1.5 MB of dictionaries, about 0.2 s to decompress) are imported on the first
 * estimate, not when the app loads, so a Worker isolate that never sets a password never pays for
 * them. The estimator made from them holds only those dictionaries, never a password: it is
 * computed once and kept, as a constant would be.
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

let estimator: Promise<ZxcvbnFactory> | undefined

/**
 * A package's namespace as `import()` gives it. A bundle that took a package's CommonJS build
 * (`npm start`'s, for the Node platform) hands its exports as `default` alone; Workers and tsx give
 * the ES module's named exports.
 */
function namespaceOf<T extends object>(imported: T, name: keyof T): T {
  if (name in imported) return imported
  return (imported as { default?: T }).default ?? imported
}

async function loadEstimator(): Promise<ZxcvbnFactory> {
  const [core, common, english] = await Promise.all([
    import('@zxcvbn-ts/core').then((m) => namespaceOf(m, 'ZxcvbnFactory')),
    import('@zxcvbn-ts/language-common').then((m) => namespaceOf(m, 'dictionary')),
    import('@zxcvbn-ts/language-en').then((m) => namespaceOf(m, 'dictionary')),
  ])
  return new core.ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  })
}

const toEstimate = (result: ZxcvbnResult): StrengthEstimate => ({
  score: result.score,
  checkedLength: result.password.length,
  sequence: result.sequence,
  suggestions: result.feedback.suggestions,
})

/** zxcvbn's estimate of the password, knowing the words of its context (name, email, workspace, service). */
export async function estimateStrength(password: string, contextWords: string[]): Promise<StrengthEstimate> {
  estimator ??= loadEstimator().catch((err: unknown) => {
    estimator = undefined
    throw err
  })
  return toEstimate((await estimator).check(password, contextWords))
}
