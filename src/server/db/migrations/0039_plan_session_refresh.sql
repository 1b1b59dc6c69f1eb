-- A member's plan changes (subscribing, switching, the end of a period or of a grace, a Stripe event): every instance
-- forgets the member's cached sessions (auth/sessions.ts listens on session_revoked; 'profile:<id>' evicts the
-- owner's), as a name change does, because the session's user carries the plan for the forms (a ride's stops). The
-- notice is sent when the plan move's transaction commits, and not at all if it rolls back.
CREATE FUNCTION "profiles_plan_session_refresh"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('session_revoked', 'profile:' || NEW."user_id");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "profiles_plan_session_refresh" AFTER UPDATE OF "plan" ON "profiles"
  FOR EACH ROW WHEN (OLD."plan" IS DISTINCT FROM NEW."plan")
  EXECUTE FUNCTION "profiles_plan_session_refresh"();
