CREATE TABLE "agent_authorization_workspaces" (
	"authorization_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "agent_authorization_workspaces_authorization_id_workspace_id_pk" PRIMARY KEY("authorization_id","workspace_id")
);
--> statement-breakpoint
CREATE TABLE "agent_grant_workspaces" (
	"token_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"position" integer NOT NULL,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "agent_grant_workspaces_token_id_workspace_id_pk" PRIMARY KEY("token_id","workspace_id")
);
--> statement-breakpoint
CREATE TABLE "agent_grants" (
	"token_id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_authorization_workspaces" ADD CONSTRAINT "agent_authorization_workspaces_authorization_id_agent_authorizations_id_fk" FOREIGN KEY ("authorization_id") REFERENCES "public"."agent_authorizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_authorization_workspaces" ADD CONSTRAINT "agent_authorization_workspaces_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_grant_workspaces" ADD CONSTRAINT "agent_grant_workspaces_token_id_agent_grants_token_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."agent_grants"("token_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_grant_workspaces" ADD CONSTRAINT "agent_grant_workspaces_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_grants" ADD CONSTRAINT "agent_grants_token_id_api_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."api_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_grants" ADD CONSTRAINT "agent_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_grant_workspaces_ws_idx" ON "agent_grant_workspaces" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "agent_grants_user_idx" ON "agent_grants" USING btree ("user_id");--> statement-breakpoint
-- Grants issued before this migration: their user is known while the authorization that issued them is kept.
INSERT INTO "agent_grants" ("token_id", "user_id")
SELECT DISTINCT ON (t."id") t."id", a."user_id" FROM "api_tokens" t
JOIN "agent_authorizations" a ON a."token_id" = t."id"
JOIN "users" u ON u."id" = a."user_id"
WHERE t."agent_client_id" IS NOT NULL;--> statement-breakpoint
INSERT INTO "agent_grant_workspaces" ("token_id", "workspace_id", "position")
SELECT t."id", t."workspace_id", 0 FROM "api_tokens" t JOIN "agent_grants" g ON g."token_id" = t."id";--> statement-breakpoint
-- A live grant whose user is no longer known cannot be checked against memberships: the agent signs in again.
UPDATE "api_tokens" SET "revoked_at" = now()
WHERE "agent_client_id" IS NOT NULL AND "revoked_at" IS NULL
AND NOT EXISTS (SELECT 1 FROM "agent_grants" g WHERE g."token_id" = "api_tokens"."id");
