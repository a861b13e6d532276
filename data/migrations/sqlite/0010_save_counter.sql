-- 0010: stands in for wip/durability's migration of this number and name (the save counter),
-- so that the migrations of this branch run 1..n without a gap. At the merge, take that
-- branch's file: it is the real one.
SELECT 1;
