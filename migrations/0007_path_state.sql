-- Paths that follow the files. Each path of an image says whether the file
-- was there at the last look (`missing`), and when that look was
-- (`checked_at`, NULL until a look other than an import's). `last_seen`
-- stays the last time the file was seen. `path_bytes` is reserved for a
-- name that is not UTF-8: its exact bytes, with `path` its display form
-- (NULL when `path` holds the name exactly).
ALTER TABLE image_paths ADD COLUMN missing INTEGER NOT NULL DEFAULT 0 CHECK (missing IN (0, 1));
ALTER TABLE image_paths ADD COLUMN checked_at INTEGER;
ALTER TABLE image_paths ADD COLUMN path_bytes BLOB;

-- An image's best path (an existing one, the most recently seen) is the
-- first entry of this index for the image: one step, no sort.
DROP INDEX image_paths_by_image_recency;
CREATE INDEX image_paths_by_image_best ON image_paths(image_id, missing, last_seen DESC, path DESC);
