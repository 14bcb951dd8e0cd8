-- Placeholder on branch i8 only: migration 3 belongs to a parallel branch.
-- The merger deletes this file when that branch's 0003_*.sql arrives.
SELECT 1;
