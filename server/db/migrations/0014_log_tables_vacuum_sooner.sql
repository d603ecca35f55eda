-- The Log and the Activity are read newest first as index-only walks (a deep page reads 10,000
-- index entries), which stay index-only only where the visibility map marks the pages all-visible.
-- By default autovacuum visits an insert-only table after inserts of 20% of its rows (200,000 at a
-- million entries), so the newest entries, the ones read, were the ones left unmarked and each was
-- fetched from the heap (docs/decisions.md, "Vacuum the log tables sooner").
ALTER TABLE "rule_activity" SET (autovacuum_vacuum_insert_scale_factor = 0.005, autovacuum_vacuum_insert_threshold = 1000);--> statement-breakpoint
ALTER TABLE "audit_log" SET (autovacuum_vacuum_insert_scale_factor = 0.005, autovacuum_vacuum_insert_threshold = 1000);
