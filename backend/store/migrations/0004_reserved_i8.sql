-- Placeholder on branch i8 only: migration 4 belongs to a parallel branch.
-- The merger deletes this file when that branch's 0004_*.sql arrives.
SELECT 1;
