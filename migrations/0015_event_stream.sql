CREATE TABLE "event_streams" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "tx_id" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "position" bigserial NOT NULL;--> statement-breakpoint
ALTER TABLE "event_streams" ADD CONSTRAINT "event_streams_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_streams_workspace_idx" ON "event_streams" USING btree ("workspace_id","expires_at");--> statement-breakpoint
CREATE INDEX "webhook_events_stream_idx" ON "webhook_events" USING btree ("workspace_id","tx_id","position");