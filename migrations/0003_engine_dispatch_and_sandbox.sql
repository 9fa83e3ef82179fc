CREATE TABLE "sandbox_posts" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"platform" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"reply_to_id" text,
	"kind" text NOT NULL,
	"text" text NOT NULL,
	"media" jsonb NOT NULL,
	"options" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "targets" ADD COLUMN "dispatched_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_posts_key_uq" ON "sandbox_posts" USING btree ("account_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "sandbox_posts_reply_idx" ON "sandbox_posts" USING btree ("reply_to_id");