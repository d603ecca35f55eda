-- The Activity's text search is judged by the planner's estimate of how many entries hold the text
-- (walk the sort's index, or read every match and sort them: server/engine/ruleLogPages.ts). With the
-- default 100-value histogram of a column whose every value differs, a text in 3 % of the entries
-- (a surname: 33,500 of a million) matched none of the sample and was estimated at 100, so its matches
-- were read and rechecked (100 ms) where a walk finds the page in a few. A 300-value histogram sees
-- it (estimated 30,000) and any text in 1 % of the entries, where reading starts to cost more than
-- walking; planning such a statement costs ~0.6 ms more (docs/bench.md, "Seventh pass").
ALTER TABLE "rule_activity" ALTER COLUMN "search_text" SET STATISTICS 300;--> statement-breakpoint
ANALYZE "rule_activity" ("search_text");
