-- Files that fail to import, one row per path: the latest reason, how often,
-- and the file's size and time at the latest attempt, so an unchanged file
-- is not read or reported again. `import_failures` stays the log of every
-- attempt. A path that is later stored as an image stops failing.
CREATE TABLE failing_files (
    path          TEXT    NOT NULL PRIMARY KEY,
    size          INTEGER,                 -- NULL when the file could not be examined
    mtime_ns      INTEGER,
    reason        TEXT    NOT NULL,
    run_id        INTEGER REFERENCES runs(id),
    first_failed  INTEGER NOT NULL,
    last_failed   INTEGER NOT NULL,
    attempts      INTEGER NOT NULL CHECK (attempts >= 1),
    path_bytes    BLOB                     -- as image_paths.path_bytes
) WITHOUT ROWID;

ALTER TABLE import_failures ADD COLUMN size INTEGER;
ALTER TABLE import_failures ADD COLUMN mtime_ns INTEGER;
ALTER TABLE import_failures ADD COLUMN path_bytes BLOB;

-- Catalogues made before: every path whose latest attempt was not followed
-- by the file being stored. Size and time are unknown, so the next import
-- reads each once more.
INSERT INTO failing_files (path, reason, run_id, first_failed, last_failed, attempts)
SELECT g.path,
       (SELECT reason FROM import_failures WHERE path = g.path ORDER BY id DESC LIMIT 1),
       (SELECT run_id FROM import_failures WHERE path = g.path ORDER BY id DESC LIMIT 1),
       g.first_failed, g.last_failed, g.attempts
FROM (SELECT path, min(failed_at) AS first_failed, max(failed_at) AS last_failed, count(*) AS attempts
      FROM import_failures GROUP BY path) AS g
WHERE NOT EXISTS (SELECT 1 FROM image_paths AS p WHERE p.path = g.path AND p.last_seen >= g.last_failed);

CREATE TRIGGER stored_paths_stop_failing
AFTER INSERT ON image_paths
BEGIN
    DELETE FROM failing_files WHERE path = NEW.path;
END;

CREATE TRIGGER seen_paths_stop_failing
AFTER UPDATE OF last_seen ON image_paths
BEGIN
    DELETE FROM failing_files WHERE path = NEW.path;
END;
