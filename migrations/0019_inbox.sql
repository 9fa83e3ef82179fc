CREATE TABLE "account_sync" (
	"account_id" text NOT NULL,
	"stream" text NOT NULL,
	"cursor" text,
	"next_run_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"lease_holder" text,
	"failures" integer DEFAULT 0 NOT NULL,
	"backoff_until" timestamp with time zone,
	"last_error" jsonb,
	"last_success_at" timestamp with time zone,
	"requested_at" timestamp with time zone,
	CONSTRAINT "account_sync_account_id_stream_pk" PRIMARY KEY("account_id","stream")
);
--> statement-breakpoint
CREATE TABLE "inbox_comments" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"account_id" text NOT NULL,
	"platform" text NOT NULL,
	"kind" text NOT NULL,
	"target_id" text,
	"post_id" text,
	"external_id" text NOT NULL,
	"parent_id" text,
	"parent_external_id" text,
	"post_external_id" text,
	"author_external_id" text,
	"author_name" text NOT NULL,
	"author_handle" text,
	"author_avatar_url" text,
	"text" text NOT NULL,
	"permalink" text,
	"from_account" boolean DEFAULT false NOT NULL,
	"state" text DEFAULT 'unread' NOT NULL,
	"read_at" timestamp with time zone,
	"replied_at" timestamp with time zone,
	"hidden_at" timestamp with time zone,
	"liked_at" timestamp with time zone,
	"gone_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbox_replies" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"comment_id" text NOT NULL,
	"account_id" text NOT NULL,
	"text" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"call_started_at" timestamp with time zone,
	"external_id" text,
	"permalink" text,
	"error" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sandbox_comments" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"sandbox_post_id" text NOT NULL,
	"reply_to_id" text,
	"author_name" text NOT NULL,
	"text" text NOT NULL,
	"from_account" boolean DEFAULT false NOT NULL,
	"hidden" boolean DEFAULT false NOT NULL,
	"liked" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "target_comment_sync" (
	"target_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"cursor" text,
	"last_comment_at" timestamp with time zone,
	"synced_at" timestamp with time zone,
	"next_run_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "source" text DEFAULT 'service' NOT NULL;--> statement-breakpoint
ALTER TABLE "target_metric_snapshots" ADD COLUMN "clicks" integer;--> statement-breakpoint
ALTER TABLE "target_metric_snapshots" ADD COLUMN "impressions" integer;--> statement-breakpoint
ALTER TABLE "target_metric_snapshots" ADD COLUMN "reach" integer;--> statement-breakpoint
ALTER TABLE "account_sync" ADD CONSTRAINT "account_sync_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_comments" ADD CONSTRAINT "inbox_comments_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_comments" ADD CONSTRAINT "inbox_comments_target_id_targets_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."targets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_replies" ADD CONSTRAINT "inbox_replies_comment_id_inbox_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."inbox_comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "target_comment_sync" ADD CONSTRAINT "target_comment_sync_target_id_targets_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."targets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_sync_next_run_idx" ON "account_sync" USING btree ("next_run_at");--> statement-breakpoint
CREATE UNIQUE INDEX "inbox_comments_account_kind_external_uq" ON "inbox_comments" USING btree ("account_id","kind","external_id");--> statement-breakpoint
CREATE INDEX "inbox_comments_workspace_created_idx" ON "inbox_comments" USING btree ("workspace_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "inbox_comments_workspace_state_idx" ON "inbox_comments" USING btree ("workspace_id","state","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "inbox_comments_target_idx" ON "inbox_comments" USING btree ("target_id","created_at");--> statement-breakpoint
CREATE INDEX "inbox_replies_comment_idx" ON "inbox_replies" USING btree ("comment_id","created_at");--> statement-breakpoint
CREATE INDEX "sandbox_comments_post_idx" ON "sandbox_comments" USING btree ("sandbox_post_id","created_at");--> statement-breakpoint
CREATE INDEX "sandbox_comments_account_idx" ON "sandbox_comments" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "target_comment_sync_account_idx" ON "target_comment_sync" USING btree ("account_id","next_run_at");--> statement-breakpoint
CREATE INDEX "targets_account_platform_post_idx" ON "targets" USING btree ("account_id","platform_post_id");