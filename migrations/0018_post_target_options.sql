ALTER TABLE "posts" ADD COLUMN "title" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "destinations" jsonb;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "target_options" jsonb;