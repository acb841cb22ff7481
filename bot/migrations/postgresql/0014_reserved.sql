-- Reserved: number 14 belongs to a migration of another branch. This file holds nothing and
-- only keeps the numbers 1..n whole until that migration is merged; delete it then.
SELECT 1;
