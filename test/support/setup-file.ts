import { afterAll } from 'vitest'
import { closeTestDatabase } from './database'
import { closeTestRedis } from './redis'

afterAll(async () => {
  await closeTestDatabase()
  await closeTestRedis()
})
