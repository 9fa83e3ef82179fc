/**
 * Single modules of @zxcvbn-ts/language-en, imported one by one (password-dictionaries.ts) so that
 * the dictionaries the rule leaves out are not bundled; the package declares types for its index only.
 */
declare module '@zxcvbn-ts/language-en/dist/commonWords.json.mjs' {
  const words: string[]
  export default words
}
declare module '@zxcvbn-ts/language-en/dist/firstnames.json.mjs' {
  const words: string[]
  export default words
}
declare module '@zxcvbn-ts/language-en/dist/wordSequences.json.mjs' {
  const sequences: Record<string, string[]>
  export default sequences
}
declare module '@zxcvbn-ts/language-en/dist/translations.mjs' {
  import type { TranslationKeys } from '@zxcvbn-ts/core'
  const translations: TranslationKeys
  export default translations
}
