CREATE TABLE "server_instances" (
	"holder" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "targets" ADD COLUMN "dispatched_by" text;--> statement-breakpoint
CREATE INDEX "server_instances_last_seen_idx" ON "server_instances" USING btree ("last_seen_at");--> statement-breakpoint
CREATE INDEX "targets_dispatched_by_idx" ON "targets" USING btree ("dispatched_by") WHERE "targets"."status" = 'PENDING';