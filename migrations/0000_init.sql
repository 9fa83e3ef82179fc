CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "api_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"hint" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"social_accounts" integer NOT NULL,
	"seats" integer NOT NULL,
	"monthly_posts" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspaces" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"plan_id" text NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"platform" text NOT NULL,
	"connection" text NOT NULL,
	"username" text NOT NULL,
	"external_id" text,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"status_message" text,
	"credentials" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "posts" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"status" text NOT NULL,
	"type" text NOT NULL,
	"caption" text,
	"caption_overrides" jsonb,
	"media_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"scheduled_at" timestamp with time zone,
	"published_at" timestamp with time zone,
	"thread_parts" jsonb,
	"first_comment" text,
	"reply_to_micropost_id" text,
	"quote_micropost_id" text,
	"video_net_options" jsonb,
	"audio" jsonb,
	"pinboard_net_boards" jsonb,
	"pinboard_net_options" jsonb,
	"link_url" text,
	"recurrence" jsonb,
	"recurrence_parent_id" text,
	"queued" boolean DEFAULT false NOT NULL,
	"queue_slot_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "targets" (
	"id" text PRIMARY KEY NOT NULL,
	"post_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"account_id" text NOT NULL,
	"platform" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"permalink" text,
	"platform_post_id" text,
	"error" jsonb,
	"warnings" jsonb,
	"published_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"due_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"claimed_version" integer,
	"progress" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "folders" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media_assets" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"folder_id" text,
	"type" text NOT NULL,
	"storage_key" text NOT NULL,
	"url" text NOT NULL,
	"mime_type" text NOT NULL,
	"width" integer,
	"height" integer,
	"duration_sec" real,
	"size_bytes" integer NOT NULL,
	"alt_text" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media_variants" (
	"source_id" text NOT NULL,
	"format" text NOT NULL,
	"fit" text NOT NULL,
	"crop" text NOT NULL,
	"asset_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "queue_slots" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"weekday" smallint NOT NULL,
	"minutes" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "follower_snapshots" (
	"account_id" text NOT NULL,
	"day" date NOT NULL,
	"followers" integer,
	"collected_at" timestamp with time zone NOT NULL,
	CONSTRAINT "follower_snapshots_account_id_day_pk" PRIMARY KEY("account_id","day")
);
--> statement-breakpoint
CREATE TABLE "target_metric_snapshots" (
	"id" text PRIMARY KEY NOT NULL,
	"target_id" text NOT NULL,
	"collected_at" timestamp with time zone NOT NULL,
	"likes" integer,
	"comments" integer,
	"shares" integer,
	"views" integer,
	"saves" integer
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "targets" ADD CONSTRAINT "targets_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "targets" ADD CONSTRAINT "targets_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "folders" ADD CONSTRAINT "folders_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_assets" ADD CONSTRAINT "media_assets_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_assets" ADD CONSTRAINT "media_assets_folder_id_folders_id_fk" FOREIGN KEY ("folder_id") REFERENCES "public"."folders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_variants" ADD CONSTRAINT "media_variants_source_id_media_assets_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."media_assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_variants" ADD CONSTRAINT "media_variants_asset_id_media_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."media_assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_slots" ADD CONSTRAINT "queue_slots_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follower_snapshots" ADD CONSTRAINT "follower_snapshots_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "target_metric_snapshots" ADD CONSTRAINT "target_metric_snapshots_target_id_targets_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."targets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_hash_uq" ON "api_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "api_tokens_workspace_idx" ON "api_tokens" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "accounts_workspace_idx" ON "accounts" USING btree ("workspace_id","platform");--> statement-breakpoint
CREATE INDEX "posts_workspace_created_idx" ON "posts" USING btree ("workspace_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "posts_workspace_status_created_idx" ON "posts" USING btree ("workspace_id","status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "posts_workspace_scheduled_idx" ON "posts" USING btree ("workspace_id","scheduled_at");--> statement-breakpoint
CREATE INDEX "posts_workspace_published_idx" ON "posts" USING btree ("workspace_id","published_at");--> statement-breakpoint
CREATE INDEX "posts_workspace_type_idx" ON "posts" USING btree ("workspace_id","type");--> statement-breakpoint
CREATE INDEX "posts_caption_trgm_idx" ON "posts" USING gin ("caption" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "posts_queue_slot_uq" ON "posts" USING btree ("workspace_id","queue_slot_at") WHERE "posts"."queue_slot_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "targets_post_account_uq" ON "targets" USING btree ("post_id","account_id");--> statement-breakpoint
CREATE INDEX "targets_account_idx" ON "targets" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "targets_workspace_platform_idx" ON "targets" USING btree ("workspace_id","platform","post_id");--> statement-breakpoint
CREATE INDEX "targets_due_idx" ON "targets" USING btree ("status","due_at");--> statement-breakpoint
CREATE UNIQUE INDEX "folders_workspace_name_uq" ON "folders" USING btree ("workspace_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "media_assets_storage_key_uq" ON "media_assets" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "media_assets_workspace_folder_idx" ON "media_assets" USING btree ("workspace_id","folder_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "media_assets_workspace_created_idx" ON "media_assets" USING btree ("workspace_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "media_variants_uq" ON "media_variants" USING btree ("source_id","format","fit","crop");--> statement-breakpoint
CREATE INDEX "media_variants_asset_idx" ON "media_variants" USING btree ("asset_id");--> statement-breakpoint
CREATE UNIQUE INDEX "queue_slots_uq" ON "queue_slots" USING btree ("workspace_id","weekday","minutes");--> statement-breakpoint
CREATE INDEX "queue_slots_workspace_idx" ON "queue_slots" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "target_metric_snapshots_target_idx" ON "target_metric_snapshots" USING btree ("target_id","collected_at" DESC NULLS LAST);