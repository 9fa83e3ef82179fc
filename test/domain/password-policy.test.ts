/** The new-password rule (NIST SP 800-63B memorized secrets, with zxcvbn-ts's estimate), as a table. */
import { describe, expect, it } from 'vitest'
import {
  MAX_PASSWORD_LENGTH,
  passwordLength,
  passwordRefusal,
  type PasswordRefusalReason,
} from '../../src/domain/password-policy'
import { createStrengthEstimator } from '../../src/domain/password-strength'

const NIA = { name: 'Nia Okafor', email: 'nia.okafor@example.com', workspaceName: 'Okafor Bakery' }

describe('passwordRefusal', () => {
  const estimator = createStrengthEstimator()

  const refused: Array<[string, PasswordRefusalReason]> = [
    ['short1!', 'too_short'],
    ['ｐａｓｓ', 'too_short'],
    ['        ', 'only_whitespace'],
    ['\u3000\u3000\u3000\u3000\u3000\u3000\u3000\u3000', 'only_whitespace'],
    ['tab\tinside a long one', 'not_printable'],
    ['password', 'common'],
    ['12345678', 'common'],
    ['qwertyuiop', 'common'],
    // Full-width letters are the same password once NFKC-normalized.
    ['ｐａｓｓｗｏｒｄ', 'common'],
    ['p@ssw0rd', 'common_variant'],
    ['password-1', 'common_variant'],
    ['aaaaaaaaaaaa', 'repetitive'],
    ['😀😀😀😀😀😀😀😀', 'repetitive'],
    ['abcdefghijkl', 'sequential'],
    ['zxcvbnm,./', 'keyboard_pattern'],
    ['nia.okafor', 'context'],
    ['OkaforBakery2024', 'context'],
    ['Okafor Bakery Cooperative', 'context'],
    ['socialpublishing2024', 'context'],
    ['dragonfly9', 'too_guessable'],
  ]
  it.each(refused)('refuses %j as %s, saying why', async (password, reason) => {
    const found = await passwordRefusal(estimator, password, NIA)
    expect(found?.reason).toBe(reason)
    expect(found?.message).toMatch(/\S{3,}.*\./)
  })

  it('says which context word the password is built from, with the estimator suggestion', async () => {
    expect((await passwordRefusal(estimator, 'NiaOkafor2024', NIA))?.message).toMatch(
      /^This password is built from your name\b/,
    )
    expect((await passwordRefusal(estimator, 'okaforbakery', NIA))?.message).toMatch(/the workspace name/)
    expect((await passwordRefusal(estimator, 'nia.okafor', NIA))?.message).toMatch(/your email address/)
    expect((await passwordRefusal(estimator, 'password', NIA))?.message).toBe(
      'This password is among the most common ones; choose another. Add more words that are less common.',
    )
  })

  const accepted = [
    'correct horse battery staple',
    'velvet harbour lantern at dawn',
    'Xq7bN2pLr9tW4vYz',
    // A context word inside a strong passphrase is fine.
    'Nia walks the misty harbour wall',
    'mélodie du soir sur la mer',
    '猫は静かに窓辺で眠る夏の午後',
    'a long passphrase with spaces, commas & symbols: {ok}!',
  ]
  it.each(accepted)('accepts %j', async (password) => {
    expect(await passwordRefusal(estimator, password, NIA)).toBeNull()
  })

  it('counts Unicode code points after NFKC, and takes at least 64 characters (up to 256)', async () => {
    expect(passwordLength('😀🎉🌍🚀')).toBe(4)
    expect(passwordLength('ﬁ')).toBe(2)
    const long = 'harbour lantern velvet dawn orbit maple kettle mural otter canyon '.repeat(4).slice(0, 250)
    expect(long.length).toBeGreaterThan(64)
    expect(await passwordRefusal(estimator, long)).toBeNull()
    expect((await passwordRefusal(estimator, 'x'.repeat(MAX_PASSWORD_LENGTH + 1)))?.reason).toBe('too_long')
  })
})
