-- Yes/no verdict of a saved answer ("yes", "no", "unclear"; '' for other questions).
ALTER TABLE answers ADD COLUMN verdict TEXT NOT NULL DEFAULT '';
