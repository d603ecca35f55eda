-- An ad's entries are found by rule_activity_ad_id_sort_idx (ad_id, id) as well: this one added nothing but
-- a cheaper-looking way for the planner to walk the Ad id sort, away from the index below.
DROP INDEX "rule_activity_ad_idx";
--> statement-breakpoint
-- The Activity's Ad id sort with a broad search (`image`, `Carousel`, `video`: 14–15 % of the entries)
-- walks the entries in ad-id order testing each one's search text until the page is full. Read from
-- the table, each test cost ~5.5 µs (the ad-id order is not the table's), and the 50,000 campaign
-- turn-offs that sort before every ad hold none of those texts: 200–350 ms a page. This index carries
-- the search text (and the time, the second key of the two-column sorts), so the walk tests it in
-- the index alone (~1.3 µs an entry): 60–100 ms (docs/bench.md, "Eighth pass").
-- Only that walk asks for it: its predicate's `id > 0` (always true) is written by the walk alone
-- (server/engine/ruleLog.ts, adIdTextWalk). Offered to every statement, the planner took it for the
-- text's matches read between two bounds too, filtering 140,000 texts (260 ms) where the trigram
-- index meets the ad-id range in one bitmap (60 ms): it costs an ILIKE like an equality. (A
-- predicate on the search text would not do: every search's ILIKE implies it is not null.)
CREATE INDEX IF NOT EXISTS rule_activity_ad_id_text_walk_idx ON rule_activity (ad_id, id)
  INCLUDE (created_at, search_text) WHERE state = 'done' AND id > 0;
