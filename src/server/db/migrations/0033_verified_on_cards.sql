-- Browse cards show the poster's 'Verified' badge (issue 37) and 'Verified members only' filters on it: a change of any
-- of the three checks bumps the browse lists' versions like a new name or rating (migration 0018).
DROP TRIGGER "profiles_list_version" ON "profiles";--> statement-breakpoint
CREATE TRIGGER "profiles_list_version"
  AFTER UPDATE OF "full_name", "rating_count", "rating_sum", "email_verified_at", "phone_verified_at", "id_checked_at"
  OR DELETE ON "profiles"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_list_version"('rides', 'requests');
