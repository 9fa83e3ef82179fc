-- The plans are rows, not code: -1 means unlimited.
INSERT INTO "plans" ("id", "name", "social_accounts", "seats", "monthly_posts") VALUES
  ('free', 'Free', 3, 1, 30),
  ('pro', 'Pro', 25, 3, 1000),
  ('agency', 'Agency', -1, 10, -1)
ON CONFLICT ("id") DO NOTHING;
