CREATE TABLE "connect_choices" (
	"id" text PRIMARY KEY NOT NULL,
	"link_id" text NOT NULL,
	"oauth_state_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"platform" text NOT NULL,
	"identities" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "connect_choices_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "connect_choices" ADD CONSTRAINT "connect_choices_link_id_connect_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."connect_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connect_choices" ADD CONSTRAINT "connect_choices_oauth_state_id_oauth_states_id_fk" FOREIGN KEY ("oauth_state_id") REFERENCES "public"."oauth_states"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "connect_choices_expires_idx" ON "connect_choices" USING btree ("expires_at");