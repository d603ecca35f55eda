-- Campaign name "contains" search through a trigram index where the database offers pg_trgm and the
-- user may create it (PostgreSQL 13+: a trusted extension). Elsewhere (embedded PGlite, restricted
-- roles) nothing happens and the search scans, which is fine at the embedded scale.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX IF NOT EXISTS campaigns_name_trgm_idx ON campaigns USING gin (campaign_name gin_trgm_ops);
  END IF;
EXCEPTION WHEN others THEN
  RAISE NOTICE 'pg_trgm not available (%); campaign name search will scan', SQLERRM;
END
$$;
