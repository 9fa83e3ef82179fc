/**
 * The zxcvbn-ts estimator with the dictionaries the password rule reads, loaded by
 * password-strength.ts on the first estimate. Common: the breached-passwords list, diceware words
 * and keyboard layouts. English: common words, first names and word sequences (numbers, days,
 * months...), each imported from its own module: the package's index would also bring last names
 * and Wikipedia words, about 380 KB more of the Worker (gzipped). Without them, a long rare word
 * found only there passes as random letters (docs/decisions.md).
 */
import { ZxcvbnFactory } from '@zxcvbn-ts/core'
import { adjacencyGraphs, dictionary as common } from '@zxcvbn-ts/language-common'
import commonWords from '@zxcvbn-ts/language-en/dist/commonWords.json.mjs'
import firstnames from '@zxcvbn-ts/language-en/dist/firstnames.json.mjs'
import translations from '@zxcvbn-ts/language-en/dist/translations.mjs'
import wordSequences from '@zxcvbn-ts/language-en/dist/wordSequences.json.mjs'

/** A new estimator over those dictionaries (building its ranked word lists takes a moment). */
export const createZxcvbn = (): ZxcvbnFactory =>
  new ZxcvbnFactory({
    dictionary: { ...common, 'commonWords-en': commonWords, 'firstnames-en': firstnames, ...wordSequences },
    graphs: adjacencyGraphs,
    translations,
  })
