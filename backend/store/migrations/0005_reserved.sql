-- 0005: placeholder so that this branch's migrations stay 1..n without gaps.
-- Migration numbers 0003-0005 belong to other branches; the merge replaces
-- this file with theirs (delete it when a real 0005_*.sql arrives).
SELECT 1;
