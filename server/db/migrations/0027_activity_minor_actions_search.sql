-- The Activity's Action sort with a search (server/engine/ruleLogActions.ts) must show that an action
-- before the matches holds none of them: with `search=turn_off`, in 93 % of the entries, none of the
-- 50,000 alerts and 20,000 errors holds it, and proving that read each one from the table (300 ms: the
-- whole-table trigram index cannot narrow a text found nearly everywhere). The entries of every action
-- but the commonest (turning an ad off) get a trigram index of their own (20 MB at a million entries):
-- an alert's or an error's matches are then found in ~20 ms (docs/bench.md, "Seventh pass").
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS rule_activity_minor_search_trgm_idx ON rule_activity
      USING gin (search_text gin_trgm_ops) WHERE action <> 'turn_off_ad' AND state = 'done';
  END IF;
END $$;
